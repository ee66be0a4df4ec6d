export { createSalesRepository, type SalesRepository, type SaleFilter, type SaleRow } from './sales.repository.ts';
export {
  createSalesService,
  toSaleView,
  PAYMENT_METHODS,
  SALE_STATUSES,
  type SaleStatus,
  type SalesService,
  type SaleView,
  type PaymentMethod,
  type PaymentView,
} from './sales.service.ts';
export {
  insertSale,
  customerForSale,
  type CustomerDirectory,
  type CustomerSnapshot,
  type SaleSource,
  type SaleSourceType,
} from './sale-creation.ts';
export {
  previewConversion,
  repriceLines,
  type ConversionPreview,
  type ConversionLine,
  type LineChange,
} from './conversion.ts';

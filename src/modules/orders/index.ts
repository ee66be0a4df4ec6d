export {
  createOrdersService,
  isOrderOpen,
  ORDER_STATUSES,
  type OrderStatus,
  type OrdersService,
  type OrderView,
  type NewOrder,
} from './orders.service.ts';

import { Type } from 'typebox';
import { MoneyInput, Nullable, Text, Name } from '../schemas.ts';

/**
 * The catalog's request bodies, one home for the admin API (JSON) and the hub's forms, so both
 * refuse the same things with the same limits.
 */

const RefId = Type.String({ maxLength: 64 });
const Rate = Type.String({
  pattern: '^\\d{1,3}(\\.\\d{1,2})?$',
  'x-pattern-message': 'Use a percentage such as "25" or "9.5".',
});

export const CategoryBody = Type.Object(
  { name: Text(200), parentId: Type.Optional(Nullable(RefId)) },
  { additionalProperties: false },
);
export const CategoryPatch = Type.Object(
  { name: Type.Optional(Text(200)), parentId: Type.Optional(Nullable(RefId)) },
  { additionalProperties: false },
);

export const ModelBody = Type.Object({ name: Text(200) }, { additionalProperties: false });

/** Why a 0 % rate is exempt, printed on invoices with such lines: the law's provision (VAT Directive art. 226(11)). */
const ExemptionReason = Type.Optional(
  Nullable(
    Type.String({
      maxLength: 300,
      description: 'For a 0 % rate: the provision that exempts it, printed on invoices.',
      examples: ['Oslobođeno PDV-a prema čl. 39. Zakona o PDV-u'],
    }),
  ),
);
export const TaxRateBody = Type.Object(
  { name: Text(100), rate: Rate, exemptionReason: ExemptionReason },
  { additionalProperties: false },
);
export const TaxRatePatch = Type.Object(
  { name: Type.Optional(Text(100)), rate: Type.Optional(Rate), exemptionReason: ExemptionReason },
  { additionalProperties: false },
);

const UnitCode = Type.String({
  maxLength: 3,
  description:
    'UN/ECE Recommendation 20 code (H87 piece, LTR litre, MTK m², XPK package); null: derived from the name.',
});
export const UnitBody = Type.Object(
  { name: Text(50), price: MoneyInput({ signed: true }), unitCode: Type.Optional(Nullable(UnitCode)) },
  { additionalProperties: false },
);
export const UnitPatch = Type.Object(
  {
    name: Type.Optional(Text(50)),
    price: Type.Optional(MoneyInput({ signed: true })),
    unitCode: Type.Optional(Nullable(UnitCode)),
  },
  { additionalProperties: false },
);

/** A product's own fields, as a new product has them (its units beside them, below). */
const productFields = {
  name: Name(300),
  sku: Text(100),
  barcode: Type.String({
    maxLength: 20,
    description:
      'A GTIN as printed under the bars: EAN-8, UPC-A (12 digits), EAN-13 or GTIN-14, with a valid check digit (400 naming `barcode` otherwise); spaces and hyphens are dropped. Unique within the company (409 `conflict` naming `barcode`); empty or null: none.',
    examples: ['3850104012341'],
  }),
  description: Type.String({ maxLength: 5000 }),
  categoryId: RefId,
  modelId: RefId,
  taxRateId: RefId,
  classificationCode: Type.String({
    maxLength: 10,
    description: 'KPD 2025 code ("20.30.11"): each Croatian e-invoice line carries it (HR-BR-25).',
  }),
};

export const NewProductBody = Type.Object(
  {
    name: productFields.name,
    sku: Type.Optional(productFields.sku),
    barcode: Type.Optional(Nullable(productFields.barcode)),
    description: Type.Optional(productFields.description),
    categoryId: Type.Optional(productFields.categoryId),
    modelId: Type.Optional(productFields.modelId),
    taxRateId: Type.Optional(
      Type.String({
        maxLength: 64,
        description: "The product's tax rate; absent: the company's standard (highest) rate, never a 0 % one.",
      }),
    ),
    classificationCode: Type.Optional(Nullable(productFields.classificationCode)),
    units: Type.Array(UnitBody, { minItems: 1, maxItems: 50 }),
  },
  { additionalProperties: false },
);

export const ProductPatch = Type.Object(
  {
    name: Type.Optional(productFields.name),
    sku: Type.Optional(Nullable(productFields.sku)),
    barcode: Type.Optional(Nullable(productFields.barcode)),
    description: Type.Optional(Nullable(productFields.description)),
    categoryId: Type.Optional(Nullable(productFields.categoryId)),
    modelId: Type.Optional(Nullable(productFields.modelId)),
    taxRateId: Type.Optional(productFields.taxRateId),
    classificationCode: Type.Optional(Nullable(productFields.classificationCode)),
    active: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);

/**
 * The hub's product and unit forms: the same bodies, with the price as typed ("8,90", "12"),
 * which the service reads and checks (the admin API sends it as "8.90"). Every other field and
 * limit is the admin API's.
 */
export const UnitForm = Type.Object({ ...UnitBody.properties, price: Text(20) }, { additionalProperties: false });
export const NewProductForm = Type.Object(
  { ...NewProductBody.properties, units: Type.Array(UnitForm, { minItems: 1, maxItems: 50 }) },
  { additionalProperties: false },
);

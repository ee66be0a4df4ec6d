import { Type, type Static } from 'typebox';
import { LANGUAGES } from '../../modules/i18n/index.ts';
import { Text } from '../schemas.ts';

/** Sending a document by e-mail: the admin API's body and the hub's "Send" form. */
export const SendBody = Type.Object(
  {
    to: Type.Optional(
      Type.String({
        format: 'email',
        maxLength: 254,
        description:
          "Where to send it; absent: the customer's e-mail (the directory customer's, else as the document has it).",
      }),
    ),
    message: Type.Optional(
      Type.String({ maxLength: 5000, description: 'A personal message above the template text.' }),
    ),
    locale: Type.Optional(
      Type.Enum(LANGUAGES, {
        description:
          "The e-mail's, the PDF's and the quotation page's language; absent: the directory customer's language, else the company's.",
      }),
    ),
    includeDatasheets: Type.Optional(
      Type.Boolean({ description: "A quotation's PDF with its products' datasheets appended." }),
    ),
  },
  { additionalProperties: false },
);
export type SendBody = Static<typeof SendBody>;

/** A reply to an inquiry, e-mailed to the inquirer. */
export const ReplyBody = Type.Object(
  { message: Text(10_000, { examples: ['Yes, the walnut stain comes in 5 L cans; we have 12 in stock.'] }) },
  { additionalProperties: false },
);

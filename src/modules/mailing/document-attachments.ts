import type { AttachmentRenderer } from '../notifications/index.ts';
import type { PrintSlot } from '../printing/index.ts';
import type { QuotationsService } from '../quotations/index.ts';

/** An issued document's file as issued (invoicing's `file`): its number and its bytes. */
type IssuedFile = (
  companyId: string,
  id: string,
  format: 'a4' | 'ubl',
  opts?: { locale?: string; slot?: () => PrintSlot },
) => Promise<{ number: string; bytes: Buffer }>;

/**
 * What a sent document's e-mail carries, decided when the e-mail goes out: a sale's e-invoice is
 * its UBL as issued (a 409 if it no longer can be one: the e-mail retries); an issued sale's PDF
 * is the invoice as issued in the sending's language, the bytes the sending's hash names; a
 * quotation (with or without datasheets) is printed from what is stored. (A sale is mailed
 * once issued: its recipe always names the issued file.)
 * Prints go through the print pool: `reserve` refuses when it is full, and the e-mail retries.
 */
export function createDocumentAttachments(deps: {
  issuedFile: IssuedFile;
  quotations: Pick<QuotationsService, 'renderPdf'>;
  reserve: () => PrintSlot;
}): AttachmentRenderer {
  return async (recipe) => {
    if (recipe.file === 'e-invoice') {
      const einvoice = await deps.issuedFile(recipe.companyId, recipe.id, 'ubl');
      return { filename: `${einvoice.number}-ubl.xml`, content: einvoice.bytes, contentType: 'application/xml' };
    }
    if (recipe.document === 'sale') {
      const issued = await deps.issuedFile(recipe.companyId, recipe.id, 'a4', {
        locale: recipe.locale,
        slot: deps.reserve,
      });
      return { filename: `${issued.number}.pdf`, content: issued.bytes, contentType: 'application/pdf' };
    }
    const slot = deps.reserve();
    try {
      const printed = await deps.quotations.renderPdf(recipe.companyId, recipe.id, slot, {
        locale: recipe.locale,
        datasheets: recipe.datasheets,
      });
      return { filename: `${printed.number}.pdf`, content: printed.pdf, contentType: 'application/pdf' };
    } finally {
      slot.release();
    }
  };
}

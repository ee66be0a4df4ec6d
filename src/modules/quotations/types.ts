import type { QuotationAnswersTable, QuotationLinksTable } from '../../db/schema.ts';
import type { QuotationLinksRepository } from './quotation-links.repository.ts';

export type QuotationLinkRow = QuotationLinksTable;
export type QuotationAnswerRow = QuotationAnswersTable;

/** The port a sending writes a quotation's customer link through, in the sending's unit of work. */
export type QuotationLinkIssuer = Pick<QuotationLinksRepository, 'insertLink'>;

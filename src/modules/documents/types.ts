import type { DocumentLinesTable } from '../../db/schema.ts';
import type { documentLines } from './document-lines.repository.ts';
import type { SequencesRepository } from './sequences.repository.ts';

/** A line of a quotation, an order or a sale: one shape, a table per kind. */
export type DocumentLineRow = DocumentLinesTable;

/**
 * The lines of one kind of document, read and written. The composition root builds one per
 * table and hands it to that kind's repository, which offers it as its own.
 */
export type DocumentLineTable = ReturnType<typeof documentLines>;

/** The port issuing numbers documents through, inside the unit of work that uses the number. */
export type NumberSequences = Pick<SequencesRepository, 'next'>;

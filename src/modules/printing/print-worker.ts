/**
 * A print pool thread (piscina loads this module when the thread starts): prints one document
 * per task and hands the PDF's memory to the main thread instead of copying it.
 */
import { move, transferableSymbol, valueSymbol } from 'piscina';
import { printDocument, type PrintJob } from './print-job.ts';
import { ownedBytes } from './owned-bytes.ts';
import { warmUpPrinter } from './pdf-writer.ts';

// The fonts are parsed when the thread starts, not during the first customer's quote.
warmUpPrinter();

export default async function print(job: PrintJob): Promise<unknown> {
  const printed = await printDocument(job);
  const pdf = ownedBytes(printed.pdf);
  return move({ [transferableSymbol]: [pdf.buffer], [valueSymbol]: { ...printed, pdf } } as unknown as Parameters<
    typeof move
  >[0]);
}

// test-engines: sqlite
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PDFDocument, PDFName, PDFString } from 'pdf-lib';
import { findActiveContent } from './pdf-active-content.ts';

async function pdf(change?: (doc: PDFDocument) => void, options: { useObjectStreams?: boolean } = {}) {
  const doc = await PDFDocument.create();
  doc.addPage([200, 200]).drawText('Datasheet');
  change?.(doc);
  return doc.save({ useObjectStreams: options.useObjectStreams ?? false });
}

const jsAction = (doc: PDFDocument) =>
  doc.context.obj({ Type: 'Action', S: 'JavaScript', JS: PDFString.of('app.alert(1)') });

test('a plain PDF, and one opening at a page, have no active content', async () => {
  assert.equal(await findActiveContent(await pdf()), null);
  const goTo = await pdf((doc) => {
    const page = doc.getPage(0).ref;
    doc.catalog.set(PDFName.of('OpenAction'), doc.context.obj([page, PDFName.of('Fit')]));
  });
  assert.equal(await findActiveContent(goTo), null);
});

test('JavaScript run on opening is found, in object streams too and behind name escapes', async () => {
  for (const useObjectStreams of [false, true]) {
    const bytes = await pdf((doc) => doc.catalog.set(PDFName.of('OpenAction'), jsAction(doc)), { useObjectStreams });
    assert.equal(await findActiveContent(bytes), 'JavaScript', `object streams: ${useObjectStreams}`);
  }
  // A file pdf-lib cannot parse is still read for the names, `#4A#53` (JS) decoded.
  const hidden = Buffer.from(
    '%PDF-1.4\n1 0 obj << /OpenAction << /S /JavaScript /#4A#53 (app.alert(1)) >> >> endobj\n',
  );
  assert.equal(await findActiveContent(hidden), 'JavaScript');
});

test('page actions (/AA), embedded files and launch actions are found', async () => {
  const aa = await pdf((doc) => doc.getPage(0).node.set(PDFName.of('AA'), doc.context.obj({ O: jsAction(doc) })));
  assert.equal(await findActiveContent(aa), 'automatic actions (/AA)');
  const attached = await pdf((doc) => doc.attach(Buffer.from('x'), 'x.txt', { mimeType: 'text/plain' }));
  assert.equal(await findActiveContent(attached), 'embedded files');
  const launch = await pdf((doc) =>
    doc.catalog.set(PDFName.of('OpenAction'), doc.context.obj({ S: 'Launch', F: PDFString.of('calc.exe') })),
  );
  assert.equal(await findActiveContent(launch), 'a program launch');
});

import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PDFDocument, PDFHexString, PDFName, PDFString } from 'pdf-lib';
import { escapeXml } from './xml.ts';

/**
 * The hybrid invoice: the print, unchanged page by page, made a PDF/A-3 (ISO 19005-3:2012) that
 * carries the CII XML as `factur-x.xml`, as Factur-X 1.07 / ZUGFeRD 2.3 (profile EN 16931)
 * specify: an embedded file with AFRelationship /Alternative listed in the catalog's /AF, the
 * XMP metadata that declares PDF/A-3B and the Factur-X document (with its PDF/A extension schema),
 * and an sRGB output intent. The pages' content streams are not touched: it looks like the print.
 */
export const FACTURX_FILENAME = 'factur-x.xml';

let icc: Uint8Array | undefined;
/**
 * sRGB IEC 61966-2.1, the profile pdfkit ships (its own PDF/A output uses the same file): the
 * pdfkit that pdfmake, the printer's dependency, brings along.
 */
function srgbProfile(): Uint8Array {
  if (!icc) {
    const fromPdfmake = createRequire(fileURLToPath(import.meta.resolve('pdfmake')));
    const pdfkitMain = fromPdfmake.resolve('pdfkit');
    icc = readFileSync(path.join(path.dirname(pdfkitMain), 'data', 'sRGB_IEC61966_2_1.icc'));
  }
  return icc;
}

export async function toFacturX(
  printed: Uint8Array,
  cii: string,
  meta: { conformanceLevel: 'EN 16931' | 'XRECHNUNG' },
): Promise<Uint8Array> {
  const pdf = await PDFDocument.load(printed, { updateMetadata: false });
  const context = pdf.context;
  const catalog = pdf.catalog;
  const xml = new TextEncoder().encode(cii);
  const created = pdf.getCreationDate() ?? new Date(0);

  const file = context.flateStream(xml, {
    Type: 'EmbeddedFile',
    Subtype: 'text/xml',
    Params: { Size: xml.length, ModDate: PDFString.fromDate(created) },
  });
  const fileRef = context.register(file);
  const fileSpec = context.register(
    context.obj({
      Type: 'Filespec',
      F: PDFString.of(FACTURX_FILENAME),
      UF: PDFHexString.fromText(FACTURX_FILENAME),
      EF: { F: fileRef, UF: fileRef },
      Desc: PDFHexString.fromText('Factur-X / ZUGFeRD invoice (EN 16931, UN/CEFACT CII D16B)'),
      AFRelationship: 'Alternative',
    }),
  );
  catalog.set(PDFName.of('AF'), context.obj([fileSpec]));
  catalog.set(
    PDFName.of('Names'),
    context.obj({ EmbeddedFiles: { Names: [PDFHexString.fromText(FACTURX_FILENAME), fileSpec] } }),
  );

  const profile = context.flateStream(srgbProfile(), { N: 3 });
  catalog.set(
    PDFName.of('OutputIntents'),
    context.obj([
      {
        Type: 'OutputIntent',
        S: 'GTS_PDFA1',
        OutputConditionIdentifier: PDFString.of('sRGB IEC61966-2.1'),
        Info: PDFString.of('sRGB IEC61966-2.1'),
        DestOutputProfile: context.register(profile),
      },
    ]),
  );

  const xmp = xmpPacket({
    title: pdf.getTitle() ?? null,
    author: pdf.getAuthor() ?? null,
    subject: pdf.getSubject() ?? null,
    creator: pdf.getCreator() ?? null,
    producer: pdf.getProducer() ?? null,
    created,
    modified: pdf.getModificationDate() ?? null,
    conformanceLevel: meta.conformanceLevel,
  });
  const metadata = context.stream(xmp, { Type: 'Metadata', Subtype: 'XML' });
  catalog.set(PDFName.of('Metadata'), context.register(metadata));
  return pdf.save({ useObjectStreams: false, updateFieldAppearances: false });
}

function xmpPacket(m: {
  title: string | null;
  author: string | null;
  subject: string | null;
  creator: string | null;
  producer: string | null;
  created: Date;
  modified: Date | null;
  conformanceLevel: string;
}): string {
  const text = (s: string) => escapeXml(s);
  const alt = (s: string) => `<rdf:Alt><rdf:li xml:lang="x-default">${text(s)}</rdf:li></rdf:Alt>`;
  const iso = (d: Date) => d.toISOString().replace(/\.\d{3}Z$/, 'Z');
  return `<?xpacket begin="\uFEFF" id="W5M0MpCehiHzreSzNTczkc9d"?>
<x:xmpmeta xmlns:x="adobe:ns:meta/">
<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
<rdf:Description rdf:about="" xmlns:pdfaid="http://www.aiim.org/pdfa/ns/id/">
<pdfaid:part>3</pdfaid:part>
<pdfaid:conformance>B</pdfaid:conformance>
</rdf:Description>
<rdf:Description rdf:about="" xmlns:dc="http://purl.org/dc/elements/1.1/">
<dc:format>application/pdf</dc:format>
${m.title ? `<dc:title>${alt(m.title)}</dc:title>` : ''}
${m.author ? `<dc:creator><rdf:Seq><rdf:li>${text(m.author)}</rdf:li></rdf:Seq></dc:creator>` : ''}
${m.subject ? `<dc:description>${alt(m.subject)}</dc:description>` : ''}
</rdf:Description>
<rdf:Description rdf:about="" xmlns:pdf="http://ns.adobe.com/pdf/1.3/" xmlns:xmp="http://ns.adobe.com/xap/1.0/">
${m.producer ? `<pdf:Producer>${text(m.producer)}</pdf:Producer>` : ''}
${m.creator ? `<xmp:CreatorTool>${text(m.creator)}</xmp:CreatorTool>` : ''}
<xmp:CreateDate>${iso(m.created)}</xmp:CreateDate>
${m.modified ? `<xmp:ModifyDate>${iso(m.modified)}</xmp:ModifyDate>` : ''}
</rdf:Description>
<rdf:Description rdf:about="" xmlns:fx="urn:factur-x:pdfa:CrossIndustryDocument:invoice:1p0#">
<fx:DocumentType>INVOICE</fx:DocumentType>
<fx:DocumentFileName>${FACTURX_FILENAME}</fx:DocumentFileName>
<fx:Version>1.0</fx:Version>
<fx:ConformanceLevel>${m.conformanceLevel}</fx:ConformanceLevel>
</rdf:Description>
<rdf:Description rdf:about="" xmlns:pdfaExtension="http://www.aiim.org/pdfa/ns/extension/" xmlns:pdfaSchema="http://www.aiim.org/pdfa/ns/schema#" xmlns:pdfaProperty="http://www.aiim.org/pdfa/ns/property#">
<pdfaExtension:schemas><rdf:Bag><rdf:li rdf:parseType="Resource">
<pdfaSchema:schema>Factur-X PDFA Extension Schema</pdfaSchema:schema>
<pdfaSchema:namespaceURI>urn:factur-x:pdfa:CrossIndustryDocument:invoice:1p0#</pdfaSchema:namespaceURI>
<pdfaSchema:prefix>fx</pdfaSchema:prefix>
<pdfaSchema:property><rdf:Seq>
${[
  ['DocumentFileName', 'The name of the embedded XML document'],
  ['DocumentType', 'The type of the hybrid document in capital letters, e.g. INVOICE or ORDER'],
  ['Version', 'The actual version of the standard applying to the embedded XML document'],
  ['ConformanceLevel', 'The conformance level of the embedded XML document'],
]
  .map(
    ([name, description]) =>
      `<rdf:li rdf:parseType="Resource"><pdfaProperty:name>${name}</pdfaProperty:name><pdfaProperty:valueType>Text</pdfaProperty:valueType><pdfaProperty:category>external</pdfaProperty:category><pdfaProperty:description>${description}</pdfaProperty:description></rdf:li>`,
  )
  .join('\n')}
</rdf:Seq></pdfaSchema:property>
</rdf:li></rdf:Bag></pdfaExtension:schemas>
</rdf:Description>
</rdf:RDF>
</x:xmpmeta>
<?xpacket end="w"?>`;
}

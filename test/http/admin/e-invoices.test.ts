// test-engines: sqlite
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createTestApp, createTenant, bearer, type TestApp } from '../../support/test-app.ts';
import { assertProblem, tokenForRole } from '../../support/http-helpers.ts';
import { adminCall, assignCustomer, newOib } from '../../support/sales-helpers.ts';
import { failuresOf, validateEInvoice } from '../../support/einvoice-validation.ts';
import type { DemoCompany } from '../../../src/modules/demo/demo-company.ts';

/** The first text of an element, wherever it sits (enough for documents we wrote ourselves). */
const first = (xml: string, name: string) => xml.match(new RegExp(`<${name}[^>]*>([^<]*)</${name}>`))?.[1];
const all = (xml: string, name: string) =>
  [...xml.matchAll(new RegExp(`<${name}[^>]*>([^<]*)</${name}>`, 'g'))].map((m) => m[1]!);

function germanVatId(digits: string): string {
  let a = 10;
  for (const ch of digits) {
    a = (a + Number(ch)) % 10;
    if (a === 0) a = 10;
    a = (a * 2) % 11;
  }
  return `DE${digits}${(11 - a) % 10}`;
}

/**
 * Issue 21: every invoice, cancellation invoice and credit note as an EN 16931 e-invoice, its
 * figures the print's, checked by the official rules (test/fixtures/einvoice: EN 16931, XRechnung, HR-CIUS).
 */
describe('e-invoices', () => {
  let t: TestApp;
  let hr: DemoCompany;
  let de: DemoCompany;
  const now = Date.parse('2026-05-04T08:00:00.000Z');
  const docs: Record<string, { ubl: string; cii?: string; sale: any }> = {};

  /** A quotation of the given products (index, quantity) through the public API, converted to an invoice. */
  async function invoice(
    d: DemoCompany,
    lines: Array<[productIndex: number, quantity: number, unit?: number]>,
    customer: Record<string, unknown>,
    extraProducts: Array<{ id: string; units: Array<{ id: string }> }> = [],
    convert: Record<string, unknown> = {},
  ) {
    const products = [...d.products, ...extraProducts];
    const q = await t.app.inject({
      method: 'POST',
      url: '/api/v1/public/quotes',
      headers: bearer(d.locations[0]!.apiKey),
      payload: {
        format: 'json',
        customer: { name: 'Kupac', email: 'kupac@example.com' },
        lines: lines.map(([i, quantity, unit]) => ({
          productId: products[i]!.id,
          unitId: products[i]!.units[unit ?? 0]!.id,
          quantity,
        })),
      },
    });
    assert.equal(q.statusCode, 201, q.body);
    await assignCustomer(t.app, d, 'quotations', q.json().data.id, customer);
    const res = await adminCall(t.app, d.adminToken, 'POST', `/quotations/${q.json().data.id}/convert`, convert);
    assert.equal(res.statusCode, 201, res.body);
    return res.json().data;
  }

  async function eInvoice(d: DemoCompany, saleId: string, syntax: 'ubl' | 'cii' = 'ubl') {
    const res = await adminCall(t.app, d.adminToken, 'GET', `/sales/${saleId}/e-invoice?syntax=${syntax}`);
    assert.equal(res.statusCode, 200, res.body);
    assert.match(String(res.headers['content-type']), /^application\/xml/);
    return { xml: res.body, profile: String(res.headers['e-invoice-profile']) };
  }

  before(async () => {
    t = await createTestApp({}, { clock: { now: () => new Date(now) } });
    hr = await createTenant(t.c);
    // The operator and the operator's OIB (HR-BR-37, HR-BR-8).
    const opr = await adminCall(t.app, hr.adminToken, 'PATCH', `/users/${hr.users[0]!.id}`, { operatorOib: newOib() });
    assert.equal(opr.statusCode, 200, opr.body);
    // The demo book's 58.11.19 is not in KPD 2025 (test/http/admin/kpd.test.ts): 58.11.13 replaced it.
    const book = await adminCall(t.app, hr.adminToken, 'PATCH', `/products/${hr.products[6]!.id}`, {
      classificationCode: '58.11.13',
    });
    assert.equal(book.statusCode, 200, book.body);
    // An exempt rate and product: a third tax category beside 25 % and 5 %.
    const exemptRate = await adminCall(t.app, hr.adminToken, 'POST', '/tax-rates', {
      name: 'Oslobođeno',
      rate: '0',
      exemptionReason: 'Oslobođeno PDV-a prema čl. 39. st. 1. Zakona o PDV-u',
    });
    assert.equal(exemptRate.statusCode, 201, exemptRate.body);
    const course = await adminCall(t.app, hr.adminToken, 'POST', '/products', {
      name: 'Tečaj bojanja (obrazovanje)',
      sku: 'TEC-BOJ',
      taxRateId: exemptRate.json().data.id,
      classificationCode: '85.52.03',
      units: [{ name: 'sat', price: '40.00' }],
    });
    assert.equal(course.statusCode, 201, course.body);
    const exemptProduct = {
      id: course.json().data.id as string,
      units: (course.json().data.unitIds as string[]).map((id) => ({ id })),
    };
    const business = {
      kind: 'business',
      name: 'Gradnja Horvat d.o.o.',
      taxId: newOib(),
      address: { street: 'Savska 5', postalCode: '10000', city: 'Zagreb', country: 'HR' },
    };
    // HR: 25 % (two units, one a carton), 5 % and an exempt line.
    const sale = await invoice(
      hr,
      [
        [0, 3],
        [1, 2, 1],
        [6, 1],
        [7, 2.5],
      ],
      business,
      [exemptProduct],
    );
    docs.hrInvoice = { ubl: (await eInvoice(hr, sale.id)).xml, cii: (await eInvoice(hr, sale.id, 'cii')).xml, sale };
    const credited = await invoice(
      hr,
      [
        [0, 4],
        [3, 1],
      ],
      { ...business, taxId: newOib() },
    );
    const note = await adminCall(t.app, hr.adminToken, 'POST', `/sales/${credited.id}/credit-notes`, {
      lines: [{ lineId: credited.lines[0].id, quantity: '1.5' }],
      reason: 'Vraćena 1,5 limenka.',
    });
    assert.equal(note.statusCode, 201, note.body);
    docs.hrCreditNote = { ubl: (await eInvoice(hr, note.json().data.id)).xml, sale: note.json().data };
    const storno = await adminCall(t.app, hr.adminToken, 'POST', `/sales/${sale.id}/cancel`, {
      reason: 'Krivi kupac.',
    });
    assert.equal(storno.statusCode, 201, storno.body);
    docs.hrCancellation = { ubl: (await eInvoice(hr, storno.json().data.id)).xml, sale: storno.json().data };

    // DE: a German company; a public buyer with a Leitweg-ID (XRechnung) and a business without (EN 16931).
    de = await createTenant(t.c);
    const settings = await adminCall(t.app, de.adminToken, 'PATCH', '/settings', {
      country: 'DE',
      taxId: germanVatId('13669597'),
      locale: 'de-DE',
      address: { street: 'Torstraße 12', postalCode: '10119', city: 'Berlin' },
      einvoiceContact: { name: 'Anna Schmidt', phone: '+49 30 1234567', email: 'rechnung@farben.example' },
    });
    assert.equal(settings.statusCode, 200, settings.body);
    const leitweg = '04011000-12345-67';
    const publicBuyer = {
      kind: 'business',
      name: 'Bezirksamt Mitte von Berlin',
      taxId: germanVatId('81234567'),
      address: { street: 'Karl-Marx-Allee 31', postalCode: '10178', city: 'Berlin', country: 'DE' },
      electronicAddress: { id: leitweg, scheme: '0204' },
      buyerReference: leitweg,
    };
    // Paid by bank transfer: XRechnung's BR-DE-19 checks the IBAN (mod 97 on an integer past 2^53).
    const xr = await invoice(
      de,
      [
        [0, 2],
        [6, 3],
      ],
      publicBuyer,
    );
    docs.deXRechnung = { ubl: (await eInvoice(de, xr.id)).xml, cii: (await eInvoice(de, xr.id, 'cii')).xml, sale: xr };
    const plain = await invoice(
      de,
      [
        [2, 1, 1],
        [4, 10],
      ],
      {
        ...publicBuyer,
        name: 'Malerbetrieb Weiß GmbH',
        taxId: germanVatId('29876543'),
        electronicAddress: null,
        buyerReference: null,
      },
    );
    docs.deEn16931 = { ubl: (await eInvoice(de, plain.id)).xml, sale: plain };
  });
  after(async () => {
    await t.close();
  });

  test('the profile follows the company and the buyer', () => {
    const spec = (xml: string) => first(xml, 'cbc:CustomizationID');
    assert.equal(
      spec(docs.hrInvoice!.ubl),
      'urn:cen.eu:en16931:2017#compliant#urn:mfin.gov.hr:cius-2025:1.0#conformant#urn:mfin.gov.hr:ext-2025:1.0',
    );
    assert.equal(spec(docs.deXRechnung!.ubl), 'urn:cen.eu:en16931:2017#compliant#urn:xeinkauf.de:kosit:xrechnung_3.0');
    assert.equal(first(docs.deXRechnung!.ubl, 'cbc:BuyerReference'), '04011000-12345-67');
    assert.equal(spec(docs.deEn16931!.ubl), 'urn:cen.eu:en16931:2017');
    assert.match(
      docs.hrCreditNote!.ubl,
      /<CreditNote xmlns="urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2"/,
    );
    assert.equal(first(docs.hrCreditNote!.ubl, 'cbc:CreditNoteTypeCode'), '381');
    assert.equal(first(docs.hrCancellation!.ubl, 'cbc:InvoiceTypeCode'), '384');
  });

  test('money exactly as the JSON and the print: totals, per-rate summary, every line', () => {
    for (const [name, doc] of Object.entries(docs)) {
      const sale = doc.sale;
      // A credit note's stored amounts are negative; as a CreditNote (381) they are positive.
      const sign = sale.kind === 'credit_note' ? -1 : 1;
      const x = (s: string) => Math.round(Number(s) * 100);
      const j = (s: string) => x(s) * sign;
      const xml = doc.ubl;
      const totals = xml.match(/<cac:LegalMonetaryTotal>(.*?)<\/cac:LegalMonetaryTotal>/)![1]!;
      assert.equal(x(first(totals, 'cbc:LineExtensionAmount')!), j(sale.totals.net), name);
      assert.equal(x(first(totals, 'cbc:TaxExclusiveAmount')!), j(sale.totals.net), name);
      assert.equal(x(first(totals, 'cbc:TaxInclusiveAmount')!), j(sale.totals.withTax), name);
      assert.equal(x(first(xml, 'cbc:TaxAmount')!), j(sale.totals.tax), name);
      const subtotals = [...xml.matchAll(/<cac:TaxSubtotal>(.*?)<\/cac:TaxSubtotal>/g)].map((m) => ({
        base: x(first(m[1]!, 'cbc:TaxableAmount')!),
        tax: x(first(m[1]!, 'cbc:TaxAmount')!),
      }));
      assert.deepEqual(
        subtotals,
        sale.totals.taxes.map((r: any) => ({ base: j(r.base), tax: j(r.tax) })),
        name,
      );
      const lineAmounts = [
        ...xml.matchAll(/<cac:(?:Invoice|CreditNote)Line>(.*?)<\/cac:(?:Invoice|CreditNote)Line>/g),
      ].map((m) => x(first(m[1]!, 'cbc:LineExtensionAmount')!));
      assert.deepEqual(
        lineAmounts,
        sale.lines.map((l: any) => j(l.net)),
        name,
      );
    }
  });

  describe('HR-CIUS rules Portico relies on (Porezna uprava, HR-CIUS-EXT-EN16931-UBL 1.0.0–1.0.3)', () => {
    const hrDocs = () => [docs.hrInvoice!.ubl, docs.hrCancellation!.ubl, docs.hrCreditNote!.ubl];
    test('HR-BR-1: the invoice number has no whitespace', () => {
      for (const xml of hrDocs()) assert.doesNotMatch(first(xml, 'cbc:ID')!, /\s/);
    });
    test('HR-BR-2: the issue time, hh:mm:ss, where the company is', () => {
      for (const xml of hrDocs()) assert.equal(first(xml, 'cbc:IssueTime'), '10:00:00');
    });
    test('HR-BR-4: a positive amount due has a due date', () => {
      assert.ok(Number(first(docs.hrInvoice!.ubl, 'cbc:PayableAmount')) > 0);
      assert.match(first(docs.hrInvoice!.ubl, 'cbc:DueDate')!, /^\d{4}-\d{2}-\d{2}$/);
    });
    test('HR-BR-5: the specification identifier', () => {
      for (const xml of hrDocs())
        assert.equal(
          first(xml, 'cbc:CustomizationID'),
          'urn:cen.eu:en16931:2017#compliant#urn:mfin.gov.hr:cius-2025:1.0#conformant#urn:mfin.gov.hr:ext-2025:1.0',
        );
    });
    test('HR-BR-6: a preceding invoice reference carries its issue date', () => {
      for (const xml of [docs.hrCancellation!.ubl, docs.hrCreditNote!.ubl]) {
        const ref = xml.match(/<cac:InvoiceDocumentReference>(.*?)<\/cac:InvoiceDocumentReference>/)![1]!;
        assert.ok(first(ref, 'cbc:ID'));
        assert.equal(first(ref, 'cbc:IssueDate'), '2026-05-04');
      }
    });
    test('HR-BR-7, HR-BR-10: seller and buyer electronic addresses (OIB, scheme 9934)', () => {
      for (const xml of hrDocs()) {
        const endpoints = [...xml.matchAll(/<cbc:EndpointID schemeID="(\d+)">(\d{11})<\/cbc:EndpointID>/g)];
        assert.equal(endpoints.length, 2, xml);
        assert.deepEqual(
          endpoints.map((e) => e[1]),
          ['9934', '9934'],
        );
      }
    });
    test('HR-BR-37, HR-BR-8: the operator and the operator OIB in SellerContact', () => {
      for (const xml of hrDocs()) {
        const contact = xml.match(/<cac:SellerContact>(.*?)<\/cac:SellerContact>/)![1]!;
        assert.equal(first(contact, 'cbc:Name'), 'Ana Kovač');
        assert.match(first(contact, 'cbc:ID')!, /^\d{11}$/);
      }
    });
    test('HR-BR-16, HR-BR-36: an exempt line names its category and its exemption reason', () => {
      const line = docs.hrInvoice!.ubl.match(
        /<cac:InvoiceLine>(?:(?!<\/cac:InvoiceLine>).)*TEC-BOJ.*?<\/cac:InvoiceLine>/,
      )![0];
      const category = line.match(/<cac:ClassifiedTaxCategory>(.*?)<\/cac:ClassifiedTaxCategory>/)![1]!;
      assert.equal(first(category, 'cbc:ID'), 'E');
      assert.ok(first(category, 'cbc:Name'));
      assert.match(first(category, 'cbc:TaxExemptionReason')!, /čl\. 39/);
    });
    test('HR-BR-25: every item has a KPD code with list id CG', () => {
      for (const xml of [docs.hrInvoice!.ubl, docs.hrCancellation!.ubl]) {
        const items = all(xml, 'cbc:Name').length;
        const codes = [
          ...xml.matchAll(/<cbc:ItemClassificationCode listID="CG">([\d.]+)<\/cbc:ItemClassificationCode>/g),
        ];
        assert.equal(codes.length, xml.match(/<cac:InvoiceLine>/g)!.length, `${items}`);
      }
      assert.match(docs.hrInvoice!.ubl, /listID="CG">20\.30\.12</);
    });
    test('HR-BR-34: the business process P1 (supply) or P9 (correction)', () => {
      assert.equal(first(docs.hrInvoice!.ubl, 'cbc:ProfileID'), 'P1');
      assert.equal(first(docs.hrCreditNote!.ubl, 'cbc:ProfileID'), 'P9');
    });
    test('HR-BR-S-1, HR-BR-E-1: the buyer VAT identifier is present', () => {
      for (const xml of hrDocs()) {
        const buyer = xml.match(/<cac:AccountingCustomerParty>(.*?)<\/cac:AccountingCustomerParty>/)![1]!;
        assert.match(buyer, /<cac:PartyTaxScheme><cbc:CompanyID>HR\d{11}<\/cbc:CompanyID><cac:TaxScheme><cbc:ID>VAT/);
      }
    });
    test('HR-BR-26, HR-BR-28, HR-BR-E-10, HR-BR-54, HR-BR-55: a document with an exempt line carries the HR VAT breakdown (HR-BG-2)', () => {
      const children = (xml: string) => [...xml.matchAll(/<((?:cbc|hrextac):\w+)[ >]/g)].map((m) => m[1]);
      for (const xml of [docs.hrInvoice!.ubl, docs.hrCancellation!.ubl]) {
        // The extension is the document's first child (UBL's sequence), in Porezna uprava's namespace.
        assert.match(
          xml,
          /^<\?xml[^>]*>\n<Invoice [^>]*><ext:UBLExtensions><ext:UBLExtension><ext:ExtensionContent><hrextac:HRFISK20Data>/,
        );
        assert.match(xml, /xmlns:hrextac="urn:mfin\.gov\.hr:schema:xsd:HRExtensionAggregateComponents-1"/);
        const hr = xml.match(/<hrextac:HRTaxTotal>(.*?)<\/hrextac:HRTaxTotal>/)![1]!;
        const taxTotal = xml.match(/<cac:TaxTotal>(.*?)<\/cac:TaxTotal>/)![1]!;
        // HR-BR-55 and HR-BR-54: its VAT is the document's, and the sum of its subtotals.
        assert.equal(first(hr, 'cbc:TaxAmount'), first(taxTotal, 'cbc:TaxAmount'));
        const hrSubtotals = [...hr.matchAll(/<hrextac:HRTaxSubtotal>(.*?)<\/hrextac:HRTaxSubtotal>/g)].map(
          (m) => m[1]!,
        );
        const subtotals = [...taxTotal.matchAll(/<cac:TaxSubtotal>(.*?)<\/cac:TaxSubtotal>/g)].map((m) => m[1]!);
        const shape = (s: string) =>
          ['cbc:TaxableAmount', 'cbc:TaxAmount', 'cbc:ID', 'cbc:Percent', 'cbc:TaxExemptionReason'].map((n) =>
            first(s, n),
          );
        assert.deepEqual(hrSubtotals.map(shape), subtotals.map(shape), 'one HR subtotal per rate, to the cent');
        const sum = hrSubtotals.reduce((acc, s) => acc + Math.round(Number(first(s, 'cbc:TaxAmount')) * 100), 0);
        assert.equal(sum, Math.round(Number(first(hr, 'cbc:TaxAmount')) * 100));
        const exempt = hrSubtotals.find((s) => first(s, 'cbc:ID') === 'E')!;
        // HR-BR-28 and HR-BR-E-10: no tax and a 0 rate on the exempt subtotal, with its reason.
        assert.equal(first(exempt, 'cbc:TaxAmount'), '0.00');
        assert.equal(first(exempt, 'cbc:Percent'), '0.00');
        assert.match(first(exempt, 'cbc:TaxExemptionReason')!, /čl\. 39/);
        // The order of HRExtensionAggregateComponents-1.xsd's sequences.
        assert.deepEqual(children(exempt), [
          'cbc:TaxableAmount',
          'cbc:TaxAmount',
          'hrextac:HRTaxCategory',
          'cbc:ID',
          'cbc:Name',
          'cbc:Percent',
          'cbc:TaxExemptionReason',
          'hrextac:HRTaxScheme',
          'cbc:ID',
        ]);
        assert.equal(first(exempt.match(/<hrextac:HRTaxScheme>(.*?)<\/hrextac:HRTaxScheme>/)![1]!, 'cbc:ID'), 'VAT');
      }
      // Without an exempt line the rule asks nothing: the document goes without the extension.
      assert.doesNotMatch(docs.hrCreditNote!.ubl, /UBLExtensions|hrextac/);
      assert.doesNotMatch(docs.deEn16931!.ubl, /UBLExtensions|hrextac/);
    });
    test('HR-BR-CL-1: every VAT category mark is from HR-TB-2 (the exempt one is HR:E)', () => {
      const marks = [
        'HR:PDV25',
        'HR:PDV13',
        'HR:PDV5',
        'HR:Z',
        'HR:K',
        'HR:G',
        'HR:AE',
        'HR:E',
        'HR:POVNAK',
        'HR:PP',
        'HR:PPMV',
        'HR:O',
        'HR:N',
      ];
      for (const xml of hrDocs())
        for (const m of xml.matchAll(
          /<(?:cac:TaxCategory|cac:ClassifiedTaxCategory|hrextac:HRTaxCategory)>(.*?)<\/(?:cac|hrextac):\w*TaxCategory>/g,
        )) {
          const name = first(m[1]!, 'cbc:Name');
          if (name !== undefined) assert.ok(marks.includes(name), name);
          if (first(m[1]!, 'cbc:ID') === 'E') assert.equal(name, 'HR:E');
        }
    });
    test('HR-BR-33: no empty elements', () => {
      for (const xml of hrDocs()) assert.doesNotMatch(xml, /<([\w:]+)[^>]*>\s*<\/\1>|<[\w:]+[^>]*\/>/);
    });
  });

  test('a document that cannot be a valid e-invoice: 409 naming every missing field', async () => {
    const d = await createTenant(t.c);
    const noOperator = await adminCall(t.app, d.adminToken, 'PATCH', `/users/${d.users[0]!.id}`, { operatorOib: null });
    assert.equal(noOperator.statusCode, 200, noOperator.body);
    const noKpd = await adminCall(t.app, d.adminToken, 'PATCH', `/products/${d.products[4]!.id}`, {
      classificationCode: null,
    });
    assert.equal(noKpd.statusCode, 200, noKpd.body);
    assert.equal(noKpd.json().data.classificationCode, null);
    const sale = await invoice(
      d,
      [
        [0, 1],
        [4, 2],
      ],
      {
        kind: 'business',
        name: 'Bez OIB-a d.o.o.',
        taxId: null,
        address: { street: 'Ilica 1', postalCode: '10000', city: 'Zagreb', country: 'HR' },
      },
    );
    const problem = assertProblem(
      await adminCall(t.app, d.adminToken, 'GET', `/sales/${sale.id}/e-invoice`),
      409,
      'conflict',
    );
    assert.deepEqual(Object.keys(problem.details).sort(), [
      'customer.taxId',
      'lines[1].classificationCode',
      'operator',
    ]);
    assert.match(problem.details['lines[1].classificationCode'][0], /Line 2 .*KPD/);
    const bad = assertProblem(
      await adminCall(t.app, d.adminToken, 'PATCH', `/products/${d.products[4]!.id}`, { classificationCode: '2030' }),
      400,
      'validation_failed',
    );
    assert.ok(bad.details.classificationCode);
    assertProblem(
      await adminCall(t.app, d.adminToken, 'GET', `/sales/${sale.id}/e-invoice?syntax=pdf`),
      400,
      'validation_failed',
    );
  });

  test('an issued invoice keeps its KPD and unit codes: a later catalog edit does not change its e-invoice', async () => {
    const d = await createTenant(t.c);
    const opr = await adminCall(t.app, d.adminToken, 'PATCH', `/users/${d.users[0]!.id}`, { operatorOib: newOib() });
    assert.equal(opr.statusCode, 200, opr.body);
    const product = d.products[0]!;
    const sale = await invoice(d, [[0, 2]], {
      kind: 'business',
      name: 'Gradnja d.o.o.',
      taxId: newOib(),
      address: { street: 'Savska 5', postalCode: '10000', city: 'Zagreb', country: 'HR' },
    });
    const before = await eInvoice(d, sale.id);
    const kpd = first(before.xml, 'cbc:ItemClassificationCode');
    const unit = before.xml.match(/<cbc:InvoicedQuantity unitCode="([^"]+)"/)?.[1];
    assert.ok(kpd && unit);
    const edits = await Promise.all([
      adminCall(t.app, d.adminToken, 'PATCH', `/products/${product.id}`, { classificationCode: '47.52.02' }),
      adminCall(t.app, d.adminToken, 'PATCH', `/units/${product.units[0]!.id}`, { unitCode: 'XBX' }),
    ]);
    for (const edit of edits) assert.equal(edit.statusCode, 200, edit.body);
    const after = await eInvoice(d, sale.id);
    assert.equal(after.xml, before.xml);
    // A sale issued now takes the catalog's new codes.
    const later = await invoice(d, [[0, 1]], {
      kind: 'business',
      name: 'Gradnja d.o.o.',
      taxId: newOib(),
      address: { street: 'Savska 5', postalCode: '10000', city: 'Zagreb', country: 'HR' },
    });
    const fresh = (await eInvoice(d, later.id)).xml;
    assert.equal(first(fresh, 'cbc:ItemClassificationCode'), '47.52.02');
    assert.match(fresh, /<cbc:InvoicedQuantity unitCode="XBX"/);
  });

  test("the demo shop's invoice to a business is an e-invoice as it comes: its admin operates with a valid OIB", async () => {
    const d = await createTenant(t.c);
    const admin = (await adminCall(t.app, d.adminToken, 'GET', '/users'))
      .json()
      .data.find((u: { role: string }) => u.role === 'admin');
    assert.match(admin.operatorOib, /^\d{11}$/);
    const sale = await invoice(d, [[0, 1]], {
      kind: 'business',
      name: 'Gradnja d.o.o.',
      taxId: newOib(),
      address: { street: 'Savska 5', postalCode: '10000', city: 'Zagreb', country: 'HR' },
    });
    const { xml, profile } = await eInvoice(d, sale.id);
    assert.equal(profile, 'hr-cius');
    const contact = xml.match(/<cac:SellerContact>(.*?)<\/cac:SellerContact>/)![1]!;
    assert.equal(first(contact, 'cbc:ID'), admin.operatorOib);
  });

  test('who may read it: the roles that read sales; nobody from another company', async () => {
    const support = await tokenForRole(t.c, hr, 'support');
    const id = docs.hrInvoice!.sale.id;
    assert.equal((await adminCall(t.app, support, 'GET', `/sales/${id}/e-invoice`)).statusCode, 200);
    assertProblem(await adminCall(t.app, de.adminToken, 'GET', `/sales/${id}/e-invoice`), 404, 'not_found');
  });

  test('the hub: the sale page offers the downloads, or says in Croatian what is missing', async () => {
    const d = await createTenant(t.c, { passwords: true });
    const admin = d.users.find((u) => u.role === 'admin')!;
    const oib = await adminCall(t.app, d.adminToken, 'PATCH', `/users/${admin.id}`, { operatorOib: newOib() });
    assert.equal(oib.statusCode, 200, oib.body);
    const { token } = await t.c.accounts.signIn(admin.email, admin.password!);
    const hub = (url: string) => t.app.inject({ method: 'GET', url, headers: { cookie: `portico_session=${token}` } });
    const buyer = {
      kind: 'business',
      name: 'Gradnja d.o.o.',
      address: { street: 'Savska 5', postalCode: '10000', city: 'Zagreb', country: 'HR' },
    };
    const ready = await invoice(d, [[0, 1]], { ...buyer, taxId: newOib() });
    const page = await hub(`/hub/sales/${ready.id}`);
    assert.equal(page.statusCode, 200, page.body);
    assert.match(page.body, /<h2 id="einvoice-heading">eRačun<\/h2>/);
    assert.match(page.body, /HR CIUS 2025/);
    assert.match(page.body, new RegExp(`href="/hub/sales/${ready.id}/e-invoice\\?syntax=ubl"`));
    const xml = await hub(`/hub/sales/${ready.id}/e-invoice?syntax=cii`);
    assert.equal(xml.statusCode, 200);
    assert.equal(xml.body, (await eInvoice(d, ready.id, 'cii')).xml);
    const hybrid = await hub(`/hub/sales/${ready.id}/pdf?facturx=1&download=1`);
    assert.equal(hybrid.statusCode, 200);
    assert.match(hybrid.rawPayload.toString('latin1'), /<fx:DocumentFileName>factur-x\.xml</);

    await adminCall(t.app, d.adminToken, 'PATCH', `/products/${d.products[4]!.id}`, { classificationCode: null });
    const lacking = await invoice(
      d,
      [
        [0, 1],
        [4, 1],
      ],
      { ...buyer, taxId: null },
    );
    const missing = await hub(`/hub/sales/${lacking.id}`);
    assert.equal(missing.statusCode, 200);
    assert.match(missing.body, /Još nije valjan eRačun\. Nedostaje:/);
    assert.match(missing.body, /Stavka 2 \(Vijci za drvo 4×40 mm \(200 kom\)\): proizvod nema KPD 2025 šifru\./);
    assert.match(missing.body, /Kupac je poslovni subjekt bez OIB-a ili PDV identifikatora\./);
    assert.doesNotMatch(missing.body, /syntax=ubl/);

    // Where the shop fixes it: the product's KPD code and the customer's e-invoice fields, in the hub's forms.
    const product = await hub(`/hub/catalog/products/${d.products[0]!.id}`);
    assert.match(product.body, /Klasifikacija proizvoda KPD 2025 \(eRačun\)/);
    assert.match(product.body, /name="classificationCode"[^>]*value="20\.30\.12"/);
    const customer = await hub(`/hub/customers/${lacking.customer.id}`);
    assert.match(customer.body, /<legend>eRačuni<\/legend>/);
    for (const name of ['endpointId', 'endpointScheme', 'buyerReference'])
      assert.match(customer.body, new RegExp(`name="${name}"`));
  });

  describe('the hybrid PDF (Factur-X / ZUGFeRD EN 16931, PDF/A-3)', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portico-facturx-'));
    after(() => fs.rmSync(dir, { recursive: true, force: true }));
    const pdfOf = async (d: DemoCompany, id: string, query: string) => {
      const res = await adminCall(t.app, d.adminToken, 'GET', `/sales/${id}?${query}`);
      assert.equal(res.statusCode, 200, res.body);
      assert.match(String(res.headers['content-type']), /^application\/pdf/);
      return res;
    };
    const extract = (pdf: Buffer, name: string) => {
      const file = path.join(dir, `${name}.pdf`);
      fs.writeFileSync(file, pdf);
      return execFileSync('qpdf', [`--show-attachment=factur-x.xml`, file]).toString('utf8');
    };
    const pages = (pdf: Buffer, name: string) => {
      const file = path.join(dir, `${name}.pdf`);
      fs.writeFileSync(file, pdf);
      execFileSync('pdftoppm', ['-png', '-r', '60', file, path.join(dir, name)]);
      return fs
        .readdirSync(dir)
        .filter((f) => f.startsWith(`${name}-`) && f.endsWith('.png'))
        .sort()
        .map((f) => fs.readFileSync(path.join(dir, f)));
    };

    test("a German company's invoice PDF embeds the CII: extracted back, it is the standalone XML", async () => {
      const res = await pdfOf(de, docs.deXRechnung!.sale.id, 'format=pdf');
      assert.equal(res.headers['e-invoice-embedded'], 'factur-x.xml');
      assert.equal(extract(res.rawPayload, 'de'), docs.deXRechnung!.cii);
      const raw = res.rawPayload.toString('latin1');
      // PDF/A-3B and the Factur-X document in the XMP metadata (uncompressed, as PDF/A reads it).
      assert.match(raw, /<pdfaid:part>3<\/pdfaid:part>\s*<pdfaid:conformance>B<\/pdfaid:conformance>/);
      assert.match(raw, /<fx:DocumentFileName>factur-x\.xml<\/fx:DocumentFileName>/);
      assert.match(raw, /<fx:ConformanceLevel>XRECHNUNG<\/fx:ConformanceLevel>/);
      assert.match(raw, /<pdfaSchema:namespaceURI>urn:factur-x:pdfa:CrossIndustryDocument:invoice:1p0#</);

      const catalog = execFileSync('qpdf', [
        '--qdf',
        '--object-streams=disable',
        path.join(dir, 'de.pdf'),
        '-',
      ]).toString('latin1');
      assert.match(catalog, /\/AF \[/);
      assert.match(catalog, /\/AFRelationship \/Alternative/);
      assert.match(catalog, /\/OutputIntents \[/);
      assert.match(catalog, /\/S \/GTS_PDFA1/);
    });

    test('on request for any company, and it still looks exactly like the print', async () => {
      const id = docs.hrInvoice!.sale.id;
      const plain = await pdfOf(hr, id, 'format=pdf');
      assert.equal(plain.headers['e-invoice-embedded'], undefined, 'a Croatian print stays plain unless asked');
      const hybrid = await pdfOf(hr, id, 'format=facturx');
      assert.equal(hybrid.headers['e-invoice-embedded'], 'factur-x.xml');
      assert.equal(extract(hybrid.rawPayload, 'hr-hybrid'), (await eInvoice(hr, id, 'cii')).xml);
      assert.equal(extract(hybrid.rawPayload, 'hr-hybrid'), docs.hrInvoice!.cii, 'unchanged by its storno');
      assert.match(hybrid.rawPayload.toString('latin1'), /<fx:ConformanceLevel>EN 16931<\/fx:ConformanceLevel>/);
      const before = pages(plain.rawPayload, 'plain');
      const after = pages(hybrid.rawPayload, 'hybrid');
      assert.ok(before.length > 0);
      assert.equal(after.length, before.length);
      for (const [i, png] of before.entries()) assert.ok(png.equals(after[i]!), `page ${i + 1} renders differently`);
    });

    test('asked for a hybrid PDF that cannot be a valid e-invoice: the 409 names the field', async () => {
      const d = await createTenant(t.c);
      const sale = await invoice(d, [[0, 1]], {
        kind: 'business',
        name: 'Bez OIB-a d.o.o.',
        taxId: null,
        address: { street: 'Ilica 1', postalCode: '10000', city: 'Zagreb', country: 'HR' },
      });
      const problem = assertProblem(
        await adminCall(t.app, d.adminToken, 'GET', `/sales/${sale.id}?format=facturx`),
        409,
        'conflict',
      );
      assert.ok(problem.details['customer.taxId']);
      assert.equal((await adminCall(t.app, d.adminToken, 'GET', `/sales/${sale.id}?format=pdf`)).statusCode, 200);
    });
  });

  describe('the official EN 16931, XRechnung and HR-CIUS rules (CEN/TC 434 1.3.16, KoSIT 3.0, Porezna uprava 2026-03-13)', () => {
    test('UBL: HR invoice (three rates), storno and credit note; DE with and without a Leitweg-ID', async () => {
      const checks = [
        ['hr-invoice', docs.hrInvoice!.ubl, false],
        ['hr-cancellation', docs.hrCancellation!.ubl, false],
        ['hr-credit-note', docs.hrCreditNote!.ubl, false],
        ['de-xrechnung', docs.deXRechnung!.ubl, true],
        ['de-en16931', docs.deEn16931!.ubl, false],
      ] as const;
      const reports = await Promise.all(
        checks.map(([name, xml, xrechnung]) => validateEInvoice(name, xml, { xrechnung })),
      );
      for (const [i, report] of reports.entries()) assert.ok(report.ok, `${checks[i]![0]}:\n${failuresOf(report)}`);
      // Every Croatian company's UBL is held to HR-CIUS and the HR schema set as well as EN 16931.
      for (const report of reports.slice(0, 3))
        assert.deepEqual(report.checks, ['xsd:ubl-2.1+hr', 'en16931-ubl', 'hr-cius'], report.file);
      // BR-DE-19 (a SEPA transfer's IBAN) is only a warning in XRechnung: held as a must here.
      assert.equal(first(docs.deXRechnung!.ubl, 'cbc:PaymentMeansCode'), '58');
      assert.deepEqual(
        reports[3]!.warnings.filter((w) => w.rule === 'BR-DE-19'),
        [],
      );
    });
    test('CII D16B: the HR invoice and the XRechnung invoice', async () => {
      const [hrReport, deReport] = await Promise.all([
        validateEInvoice('hr-invoice-cii', docs.hrInvoice!.cii!),
        validateEInvoice('de-xrechnung-cii', docs.deXRechnung!.cii!, { xrechnung: true }),
      ]);
      assert.ok(hrReport!.ok, failuresOf(hrReport!));
      assert.ok(deReport!.ok, failuresOf(deReport!));
      assert.deepEqual(
        deReport!.warnings.filter((w) => w.rule === 'BR-DE-19'),
        [],
      );
    });
  });
});

import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Container } from '../../src/container.ts';
import type { FiscalDocument } from '../../src/modules/fiscal/index.ts';
import { bearer } from './test-app.ts';
import type { App } from '../../src/http/build-app.ts';
import { fiscalCertificate, p12Base64, serverCertificate, testCa, type Issued } from './fiscal-certs.ts';
import { startFakeCis, type FakeCis } from './fake-cis.ts';

/** The demo company's OIB (its tax id is HR12345678903). */
export const DEMO_OIB = '12345678903';

/** A fake CIS with its CA written where FISCAL_CIS_CA can name it, and the env to reach it. */
export async function fiscalRig(dir: string, opts: { port?: number } = {}) {
  const ca = testCa();
  const cis = await startFakeCis({ server: serverCertificate(ca), ca, ...opts });
  const caFile = path.join(dir, 'cis-ca.pem');
  fs.writeFileSync(caFile, ca.certPem);
  return { ca, cis, env: { FISCAL_CIS_URL: cis.url, FISCAL_CIS_CA: caFile } };
}

export async function uploadCertificate(app: App, adminToken: string, ca: Issued, oib = DEMO_OIB) {
  const res = await app.inject({
    method: 'PUT',
    url: '/api/v1/admin/fiscal/certificate',
    headers: bearer(adminToken),
    payload: { p12: p12Base64(fiscalCertificate(ca, oib), 'fiskal-lozinka', ca), password: 'fiskal-lozinka' },
  });
  if (res.statusCode !== 200) throw new Error(`certificate upload: ${res.statusCode} ${res.body}`);
}

let sequence = 0;

/** An issued document's facts, as the invoicing side hands them over. */
export function fiscalDocument(companyId: string, over: Partial<FiscalDocument> = {}): FiscalDocument {
  return {
    companyId,
    documentId: `sal_${randomUUID().replace(/-/g, '')}`,
    kind: 'invoice',
    issuedAt: new Date().toISOString(),
    timeZone: 'Europe/Zagreb',
    sequence: ++sequence,
    premises: 'ZG1',
    device: '1',
    sellerTaxId: `HR${DEMO_OIB}`,
    vatRegistered: true,
    taxes: [
      { ratePercent: '25', baseMinor: 10_000, taxMinor: 2_500 },
      { ratePercent: '13', baseMinor: 1_000, taxMinor: 130 },
    ],
    exemptMinor: 0,
    totalMinor: 13_630,
    paymentMethod: 'card',
    operatorTaxId: '69435151530',
    buyerTaxId: null,
    ...over,
  };
}

/** Issues as the invoicing side does: prepare in the issuing transaction, deliver after commit. */
export async function issue(c: Container, doc: FiscalDocument) {
  const prepared = await c.store.unitOfWork((repos) => c.fiscaliser.prepare(repos, doc));
  const delivered = (await c.fiscaliser.deliver(doc.companyId, [doc.documentId])).get(doc.documentId);
  return { prepared, delivered };
}

export async function until<T>(what: string, probe: () => Promise<T | null | undefined | false>, ms = 20_000) {
  const end = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

export type { FakeCis };

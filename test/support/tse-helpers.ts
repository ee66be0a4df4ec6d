import fs from 'node:fs';
import path from 'node:path';
import type { App } from '../../src/http/build-app.ts';
import type { Container } from '../../src/container.ts';
import type { DemoCompany } from '../../src/modules/demo/demo-company.ts';
import { serverCertificate, testCa } from './fiscal-certs.ts';
import { startFakeTse, type FakeTse } from './fake-tse.ts';
import { adminCall } from './sales-helpers.ts';
import { createTenant } from './test-app.ts';

/** A fake cloud TSE with its CA written where TSE_CA can name it, and the env to trust it. */
export async function tseRig(dir: string) {
  const ca = testCa();
  const tse = await startFakeTse({ server: serverCertificate(ca) });
  const caFile = path.join(dir, 'tse-ca.pem');
  fs.writeFileSync(caFile, ca.certPem);
  return { ca, tse, env: { TSE_CA: caFile, TSE_TIMEOUT_MS: '2000' } };
}

/** Eight digits and their ISO 7064 MOD 11,10 check digit (a German VAT id's nine). */
function withCheckDigit(digits: string): string {
  let a = 10;
  for (const ch of digits) {
    a = (a + Number(ch)) % 10;
    if (a === 0) a = 10;
    a = (a * 2) % 11;
  }
  return `${digits}${(11 - a) % 10}`;
}

/**
 * A demo tenant moved to Germany: country, USt-IdNr., German locale, its two rates made 19 % and
 * 7 %; its TSE account stored and its first location's device set up at the fake TSE.
 */
export async function germanShop(
  c: Container,
  app: App,
  tse: Pick<FakeTse, 'url' | 'apiKey' | 'apiSecret'>,
  opts: { device?: boolean; passwords?: boolean } = {},
) {
  const d: DemoCompany = await createTenant(c, { passwords: opts.passwords === true });
  // A German shop prints its own German template, not the Croatian demo's header and footer.
  const changed = await adminCall(app, d.adminToken, 'PATCH', '/settings', {
    country: 'DE',
    taxId: `DE${withCheckDigit('13669597')}`,
    locale: 'de-DE',
    printTemplate: {
      header: 'Farben, Lacke, Werkzeug und Beschläge',
      footer: 'Vielen Dank für Ihren Einkauf! Farben Schmidt · www.farben-schmidt.example',
      paymentInstructions: 'Zahlbar bis {dueDate} auf unser Konto, Verwendungszweck {reference}: {total}',
    },
  });
  if (changed.statusCode !== 200) throw new Error(`settings: ${changed.body}`);
  const db = c.database.db;
  await db
    .updateTable('tax_rates')
    .set({ rate_bp: 1900, name: 'USt 19 %' })
    .where('company_id', '=', d.companyId)
    .where('rate_bp', '=', 2500)
    .execute();
  await db
    .updateTable('tax_rates')
    .set({ rate_bp: 700, name: 'USt 7 %' })
    .where('company_id', '=', d.companyId)
    .where('rate_bp', '=', 500)
    .execute();
  const account = await adminCall(app, d.adminToken, 'PUT', '/fiscal/tse', {
    provider: 'fiskaly',
    apiKey: tse.apiKey,
    apiSecret: tse.apiSecret,
    baseUrl: tse.url,
  });
  if (account.statusCode !== 200) throw new Error(`tse account: ${account.body}`);
  if (opts.device !== false) {
    const device = await adminCall(app, d.adminToken, 'POST', `/locations/${d.locations[0]!.id}/tse`);
    if (device.statusCode !== 201) throw new Error(`tse device: ${device.body}`);
  }
  return d;
}

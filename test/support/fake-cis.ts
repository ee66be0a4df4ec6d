import { randomUUID, X509Certificate } from 'node:crypto';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { DOMParser, XMLSerializer, type Element } from '@xmldom/xmldom';
import { SignedXml } from 'xml-crypto';
import type { Issued } from './fiscal-certs.ts';

/**
 * A stand-in for Croatia's CIS: a real HTTPS server on 127.0.0.1 speaking the specification's
 * SOAP. It checks each RacunZahtjev's XML signature against the certificate in its KeyInfo (and
 * that certificate against the test CA), the message's shape element by element as the
 * schema's sequence orders it (the official XSD is not vendored: see the README), and the OIB
 * against the certificate's; then answers a JIR, or the error it was told to.
 */
export type CisMode = { kind: 'ok' } | { kind: 'slow'; ms: number } | { kind: 'error'; code: string; message: string };

export interface ReceivedRacun {
  messageId: string;
  oib: string;
  zki: string;
  lateDelivery: boolean;
  sequence: string;
  total: string;
  payment: string;
  xml: string;
  answer: string;
}

export interface FakeCis {
  url: string;
  mode: CisMode;
  received: ReceivedRacun[];
  echoes: number;
  /** Stops listening and cuts open connections: the next send meets a refused connection. */
  down(): Promise<void>;
  up(): Promise<void>;
  close(): Promise<void>;
}

const NS = 'http://www.apis-it.hr/fin/2012/types/f73';
const DSIG = 'http://www.w3.org/2000/09/xmldsig#';
const DATE_TIME = /^\d{2}\.\d{2}\.[12]\d{3}T\d{2}:\d{2}:\d{2}$/;
const AMOUNT = /^[+-]?\d{1,15}\.\d{2}$/;
const RATE = /^[+-]?\d{1,3}\.\d{2}$/;
const OIB = /^\d{11}$/;
const UUID = /^[a-f0-9]{8}-[a-f0-9]{4}-[a-f0-9]{4}-[a-f0-9]{4}-[a-f0-9]{12}$/;
const BOOL = /^(true|false)$/;
const NUMBER = /^[1-9]\d{0,19}$/;

type Rule = { name: string; optional?: boolean; value?: RegExp; children?: Rule[]; repeat?: boolean };
const PDV: Rule[] = [
  {
    name: 'Porez',
    repeat: true,
    children: [
      { name: 'Stopa', value: RATE },
      { name: 'Osnovica', value: AMOUNT },
      { name: 'Iznos', value: AMOUNT },
    ],
  },
];
const RACUN: Rule[] = [
  { name: 'Oib', value: OIB },
  { name: 'USustPdv', value: BOOL },
  { name: 'DatVrijeme', value: DATE_TIME },
  { name: 'OznSlijed', value: /^[PN]$/ },
  {
    name: 'BrRac',
    children: [
      { name: 'BrOznRac', value: NUMBER },
      { name: 'OznPosPr', value: /^[0-9a-zA-Z]{1,20}$/ },
      { name: 'OznNapUr', value: NUMBER },
    ],
  },
  { name: 'Pdv', optional: true, children: PDV },
  { name: 'IznosOslobPdv', optional: true, value: AMOUNT },
  { name: 'IznosUkupno', value: AMOUNT },
  { name: 'NacinPlac', value: /^[GKCTO]$/ },
  { name: 'OibOper', value: OIB },
  { name: 'ZastKod', value: /^[a-f0-9]{32}$/ },
  { name: 'NakDost', value: BOOL },
  { name: 'ParagonBrRac', optional: true },
  { name: 'SpecNamj', optional: true },
  { name: 'OibPrimateljaRacuna', optional: true, value: OIB },
];
const REQUEST: Rule[] = [
  {
    name: 'Zaglavlje',
    children: [
      { name: 'IdPoruke', value: UUID },
      { name: 'DatumVrijeme', value: DATE_TIME },
    ],
  },
  { name: 'Racun', children: RACUN },
  { name: 'Signature' },
];

function elements(node: Element): Element[] {
  const out: Element[] = [];
  for (let i = 0; i < node.childNodes.length; i++) {
    const child = node.childNodes.item(i);
    if (child?.nodeType === 1) out.push(child as Element);
  }
  return out;
}

/** The schema's sequence, checked in order; problems named by path, as s001 lists them. */
function checkShape(node: Element, rules: Rule[], path: string, problems: string[]): void {
  const children = elements(node);
  let i = 0;
  for (const rule of rules) {
    let seen = 0;
    while (children[i]?.localName === rule.name && (seen === 0 || rule.repeat)) {
      const child = children[i]!;
      const ns = rule.name === 'Signature' ? DSIG : NS;
      if (child.namespaceURI !== ns) problems.push(`${path}/${rule.name}: namespace ${child.namespaceURI}`);
      if (rule.value && !rule.value.test(child.textContent ?? ''))
        problems.push(`${path}/${rule.name}: "${child.textContent}"`);
      if (rule.children) checkShape(child, rule.children, `${path}/${rule.name}`, problems);
      seen++;
      i++;
    }
    if (seen === 0 && !rule.optional) problems.push(`${path}/${rule.name}: missing`);
  }
  for (; i < children.length; i++) problems.push(`${path}/${children[i]!.localName}: not expected here`);
}

function verifySignature(xml: string, request: Element, ca: Issued): string | null {
  const signature = elements(request).find((e) => e.localName === 'Signature' && e.namespaceURI === DSIG);
  if (!signature) return 'no signature';
  const der = signature.getElementsByTagNameNS(DSIG, 'X509Certificate').item(0)?.textContent?.replace(/\s+/g, '');
  if (!der) return 'no certificate in KeyInfo';
  const certificate = new X509Certificate(Buffer.from(der, 'base64'));
  if (!certificate.verify(new X509Certificate(ca.certPem).publicKey)) return 'certificate not issued by the CA';
  const method = signature.getElementsByTagNameNS(DSIG, 'SignatureMethod').item(0)?.getAttribute('Algorithm');
  const c14n = signature.getElementsByTagNameNS(DSIG, 'CanonicalizationMethod').item(0)?.getAttribute('Algorithm');
  const reference = signature.getElementsByTagNameNS(DSIG, 'Reference').item(0)?.getAttribute('URI');
  if (method !== 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256') return `signature method ${method}`;
  if (c14n !== 'http://www.w3.org/2001/10/xml-exc-c14n#') return `canonicalization ${c14n}`;
  if (reference !== `#${request.getAttribute('Id')}` || reference !== '#RacunZahtjev') return `reference ${reference}`;
  if (!signature.getElementsByTagNameNS(DSIG, 'X509IssuerSerial').item(0)) return 'no X509IssuerSerial';
  const verifier = new SignedXml({ publicCert: certificate.toString() });
  verifier.loadSignature(new XMLSerializer().serializeToString(signature));
  try {
    if (!verifier.checkSignature(xml)) return 'signature does not verify';
  } catch (error) {
    return `signature does not verify: ${(error as Error).message}`;
  }
  return null;
}

const text = (node: Element, name: string) => node.getElementsByTagNameNS(NS, name).item(0)?.textContent ?? '';

function envelope(body: string): string {
  return `<?xml version="1.0" encoding="UTF-8"?><soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body>${body}</soap:Body></soap:Envelope>`;
}

function answer(messageId: string, result: string): string {
  return envelope(
    `<tns:RacunOdgovor xmlns:tns="${NS}" Id="RacunOdgovor"><tns:Zaglavlje><tns:IdPoruke>${messageId}</tns:IdPoruke>` +
      `<tns:DatumVrijeme>01.01.2026T00:00:00</tns:DatumVrijeme></tns:Zaglavlje>${result}</tns:RacunOdgovor>`,
  );
}
const refusal = (code: string, message: string) =>
  `<tns:Greske><tns:Greska><tns:SifraGreske>${code}</tns:SifraGreske><tns:PorukaGreske>${message}</tns:PorukaGreske></tns:Greska></tns:Greske>`;

/** `check: false` answers a JIR at once, reading no more than the message id (a bench: a CIS answering in 0 ms). */
export async function startFakeCis(opts: {
  server: Issued;
  ca: Issued;
  port?: number;
  check?: boolean;
  /** Closes each connection after its answer: every request meets a fresh TLS connection (an invoice after a pause). */
  closeEach?: boolean;
}): Promise<FakeCis> {
  const cis: FakeCis = {
    url: '',
    mode: { kind: 'ok' },
    received: [],
    echoes: 0,
    down: async () => {},
    up: async () => {},
    close: async () => {},
  };

  const handle = async (body: string): Promise<{ status: number; xml: string }> => {
    // Unchecked (a bench: CIS answering in 0 ms): a JIR at once, the message read no further than its id.
    const quick = opts.check === false && cis.mode.kind === 'ok' ? /<tns:IdPoruke>([^<]+)</.exec(body) : null;
    if (quick) return { status: 200, xml: answer(quick[1]!, `<tns:Jir>${randomUUID()}</tns:Jir>`) };
    const doc = new DOMParser({ onError: () => {} }).parseFromString(body, 'text/xml');
    const echo = doc.getElementsByTagNameNS(NS, 'EchoRequest').item(0);
    if (echo) {
      cis.echoes++;
      return {
        status: 200,
        xml: envelope(`<tns:EchoResponse xmlns:tns="${NS}">${echo.textContent}</tns:EchoResponse>`),
      };
    }
    const request = doc.getElementsByTagNameNS(NS, 'RacunZahtjev').item(0);
    if (!request) return { status: 500, xml: envelope('<soap:Fault><faultstring>unknown</faultstring></soap:Fault>') };
    const messageId = text(request, 'IdPoruke');
    const problems: string[] = [];
    const check = opts.check !== false;
    if (check) checkShape(request, REQUEST, 'RacunZahtjev', problems);
    const shapeError = problems.length > 0 ? refusal('s001', problems.join('; ')) : null;
    const signatureError = shapeError || !check ? null : verifySignature(body, request, opts.ca);
    let result: string;
    if (shapeError) result = shapeError;
    else if (signatureError) result = refusal('s004', `Neispravan digitalni potpis (${signatureError})`);
    else {
      const der = request.getElementsByTagNameNS(DSIG, 'X509Certificate').item(0)!.textContent!.replace(/\s+/g, '');
      const subject = new X509Certificate(Buffer.from(der, 'base64')).subject;
      if (check && !subject.includes(text(request, 'Oib')))
        result = refusal('s005', 'OIB iz poruke nije jednak OIB-u iz certifikata');
      else if (cis.mode.kind === 'error') result = refusal(cis.mode.code, cis.mode.message);
      else result = `<tns:Jir>${randomUUID()}</tns:Jir>`;
    }
    if (cis.mode.kind === 'slow') {
      const ms = cis.mode.ms;
      await new Promise((r) => setTimeout(r, ms).unref()); // a hung answer must not keep a test process alive
    }
    cis.received.push({
      messageId,
      oib: text(request, 'Oib'),
      zki: text(request, 'ZastKod'),
      lateDelivery: text(request, 'NakDost') === 'true',
      sequence: text(request, 'BrOznRac'),
      total: text(request, 'IznosUkupno'),
      payment: text(request, 'NacinPlac'),
      xml: check ? body : '',
      answer: result,
    });
    return { status: result.includes('Greske') ? 500 : 200, xml: answer(messageId, result) };
  };

  const server = https.createServer({ key: opts.server.keyPem, cert: opts.server.certPem }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      handle(Buffer.concat(chunks).toString('utf8')).then(
        ({ status, xml }) => {
          if (res.destroyed) return;
          res.writeHead(status, {
            'content-type': 'text/xml; charset=utf-8',
            ...(opts.closeEach ? { connection: 'close' } : {}),
          });
          res.end(xml);
        },
        (error: unknown) => {
          res.writeHead(500);
          res.end(String(error));
        },
      );
    });
  });
  const listen = (port: number) =>
    new Promise<number>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        server.off('error', reject);
        resolve((server.address() as AddressInfo).port);
      });
    });
  const port = await listen(opts.port ?? 0);
  let listening = true;
  const stop = async () => {
    if (!listening) return;
    listening = false;
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  };
  cis.url = `https://127.0.0.1:${port}/FiskalizacijaServiceTest`;
  cis.down = stop;
  cis.up = async () => {
    if (listening) return;
    await listen(port);
    listening = true;
  };
  cis.close = stop;
  return cis;
}

import { randomUUID, X509Certificate } from 'node:crypto';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { DOMParser, XMLSerializer, type Element } from '@xmldom/xmldom';
import { SignedXml } from 'xml-crypto';
import { cisSignerCertificate, type Issued } from './fiscal-certs.ts';

/**
 * A stand-in for Croatia's CIS: a real HTTPS server on 127.0.0.1 speaking the specification's
 * SOAP. It checks each RacunZahtjev's and PromijeniPodatkeRacunaZahtjev's XML signature against
 * the certificate in its KeyInfo (and that certificate against the test CA), the message's shape
 * element by element as the schema's sequence orders it (tests validate the messages against the
 * official XSD, test/fixtures/fiscal-hr/, with xmllint), and the OIB against the certificate's;
 * then answers a JIR (or p005 for a change), or the error it was told to. Every answer is signed
 * as CIS signs its own (specification v2.6 chapter 7: inclusive c14n, its `fiskalcistest`
 * certificate, here issued by the test CA); `forge` answers as an impostor would.
 */
export type CisMode =
  | { kind: 'ok' }
  | { kind: 'slow'; ms: number }
  | { kind: 'error'; code: string; message: string }
  /** `foreign`: signed by a certificate of its own, not the CA's; `tampered`: the JIR changed after signing; `unsigned`. */
  | { kind: 'forge'; how: 'foreign' | 'tampered' | 'unsigned' };

export interface ReceivedRacun {
  messageId: string;
  oib: string;
  zki: string;
  lateDelivery: boolean;
  sequence: string;
  total: string;
  payment: string;
  /** `racuni`, or `promijeniPodatkeRacuna` with the method it changes to. */
  operation: 'racuni' | 'promijeniPodatkeRacuna';
  changedPayment: string | null;
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
const HEADER: Rule = {
  name: 'Zaglavlje',
  children: [
    { name: 'IdPoruke', value: UUID },
    { name: 'DatumVrijeme', value: DATE_TIME },
  ],
};
const REQUEST: Rule[] = [HEADER, { name: 'Racun', children: RACUN }, { name: 'Signature' }];
/** RacunPPType: the receipt as first sent, then the changed method and buyer OIB (empty: none). */
const CHANGE_REQUEST: Rule[] = [
  HEADER,
  {
    name: 'Racun',
    children: [
      ...RACUN,
      { name: 'PromijenjeniNacinPlac', value: /^[GKTO]$/ },
      { name: 'PromijenjeniOibPrimateljaRacuna', value: /^(\d{11})?$/ },
    ],
  },
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
  if (reference !== `#${request.getAttribute('Id')}` || reference !== `#${request.localName}`)
    return `reference ${reference}`;
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

/** The receipt's data a change must repeat unchanged: RacunType's children as sent, NakDost aside. */
function receiptKey(racun: Element): string {
  return elements(racun)
    .filter((e) => !['NakDost', 'PromijenjeniNacinPlac', 'PromijenjeniOibPrimateljaRacuna'].includes(e.localName ?? ''))
    .map((e) => `${e.localName}=${e.textContent}`)
    .join('|');
}

function envelope(body: string): string {
  return `<?xml version="1.0" encoding="UTF-8"?><soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body>${body}</soap:Body></soap:Envelope>`;
}

const C14N = 'http://www.w3.org/TR/2001/REC-xml-c14n-20010315';

/** An answer element, enveloped-signed as CIS signs (specification v2.6 chapter 7: inclusive c14n for answers). */
export function signedAnswer(name: string, messageId: string, result: string, signer: Issued | null): string {
  const element =
    `<tns:${name} xmlns:tns="${NS}" Id="${name}"><tns:Zaglavlje><tns:IdPoruke>${messageId}</tns:IdPoruke>` +
    `<tns:DatumVrijeme>01.01.2026T00:00:00</tns:DatumVrijeme></tns:Zaglavlje>${result}</tns:${name}>`;
  if (!signer) return envelope(element);
  const xpath = `//*[local-name(.)='${name}']`;
  const sig = new SignedXml({
    privateKey: signer.keyPem,
    publicCert: signer.certPem,
    signatureAlgorithm: 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256',
    canonicalizationAlgorithm: C14N,
  });
  sig.addReference({
    xpath,
    transforms: ['http://www.w3.org/2000/09/xmldsig#enveloped-signature', C14N],
    digestAlgorithm: 'http://www.w3.org/2001/04/xmlenc#sha256',
  });
  sig.computeSignature(envelope(element), { location: { reference: xpath, action: 'append' } });
  return sig.getSignedXml();
}

const zagrebDay = (instant: Date) =>
  new Intl.DateTimeFormat('en-CA', {
    timeZone: 'Europe/Zagreb',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(instant);
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
  /** CIS's answer-signing certificate; by default one issued by `ca`. */
  signer?: Issued;
}): Promise<FakeCis> {
  const signer = opts.signer ?? cisSignerCertificate(opts.ca);
  const forger = cisSignerCertificate(null);
  // Receipts given a JIR, by ZKI: what a change message's data must equal (s012).
  const fiscalised = new Map<string, string>();
  const answer = (messageId: string, result: string, name = 'RacunOdgovor'): string => {
    if (cis.mode.kind !== 'forge') return signedAnswer(name, messageId, result, signer);
    if (cis.mode.how === 'unsigned') return signedAnswer(name, messageId, result, null);
    if (cis.mode.how === 'foreign') return signedAnswer(name, messageId, result, forger);
    // Tampered: signed honestly, then another JIR put in.
    return signedAnswer(name, messageId, result, signer).replace(
      /<tns:Jir>[^<]+<\/tns:Jir>/,
      `<tns:Jir>${randomUUID()}</tns:Jir>`,
    );
  };
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
    const change = doc.getElementsByTagNameNS(NS, 'PromijeniPodatkeRacunaZahtjev').item(0);
    const request = change ?? doc.getElementsByTagNameNS(NS, 'RacunZahtjev').item(0);
    if (!request) return { status: 500, xml: envelope('<soap:Fault><faultstring>unknown</faultstring></soap:Fault>') };
    const messageId = text(request, 'IdPoruke');
    const problems: string[] = [];
    const check = opts.check !== false;
    if (check) checkShape(request, change ? CHANGE_REQUEST : REQUEST, request.localName ?? '', problems);
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
      else if (change) {
        const racun = request.getElementsByTagNameNS(NS, 'Racun').item(0)!;
        const first = (name: string) => racun.getElementsByTagNameNS(NS, name).item(0)?.textContent ?? '';
        const issuedDay = first('DatVrijeme').slice(0, 10).split('.').reverse().join('-');
        if (issuedDay !== zagrebDay(new Date()))
          result = refusal(
            's011',
            'Datum izdavanja računa u poruci promjene podataka računa nije jednak trenutnom datumu.',
          );
        else if (fiscalised.get(first('ZastKod')) !== receiptKey(racun))
          result = refusal(
            's012',
            'Podaci za račun u poruci promjene podataka računa razlikuju se od podataka fiskaliziranog računa ili račun nije fiskaliziran.',
          );
        else
          result =
            '<tns:PorukaOdgovora><tns:SifraPoruke>p005</tns:SifraPoruke><tns:Poruka>Uspješna prijava promjene podataka računa.</tns:Poruka></tns:PorukaOdgovora>';
      } else {
        result = `<tns:Jir>${randomUUID()}</tns:Jir>`;
        fiscalised.set(text(request, 'ZastKod'), receiptKey(request.getElementsByTagNameNS(NS, 'Racun').item(0)!));
      }
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
      operation: change ? 'promijeniPodatkeRacuna' : 'racuni',
      changedPayment: change ? text(request, 'PromijenjeniNacinPlac') : null,
      xml: check ? body : '',
      answer: result,
    });
    return {
      status: result.includes('Greske') ? 500 : 200,
      xml: answer(messageId, result, change ? 'PromijeniPodatkeRacunaOdgovor' : 'RacunOdgovor'),
    };
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

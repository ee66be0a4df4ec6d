/**
 * The messages Portico sends to CIS, as text (specification v2.5 section 2.1.1 and the XSD's
 * RacunZahtjev; section 2.5 for the echo). The order of Racun's children is the schema's
 * sequence and matters. Values arrive in CIS form (cis-format.ts); here they are only placed.
 */

export const CIS_NS = 'http://www.apis-it.hr/fin/2012/types/f73';
export const SOAP_NS = 'http://schemas.xmlsoap.org/soap/envelope/';
/** The Id the signature's Reference points at (`#RacunZahtjev`), as the specification recommends. */
export const REQUEST_ID = 'RacunZahtjev';

/** What an issued receipt tells CIS, fixed at issue; stored in the outbox and re-sent as is. */
export interface RacunFacts {
  oib: string;
  vatRegistered: boolean;
  /** DatVrijeme: `dd.MM.yyyyTHH:mm:ss` in the company's time. */
  issuedAt: string;
  sequenceMode: 'P' | 'N';
  sequence: string;
  premises: string;
  device: string;
  /** Per rate, CIS form: `{ rate: '25.00', base: '100.00', amount: '25.00' }`. */
  taxes: ReadonlyArray<{ rate: string; base: string; amount: string }>;
  /** IznosOslobPdv, when something on the receipt is exempt. */
  exempt: string | null;
  total: string;
  payment: 'G' | 'K' | 'T' | 'O';
  operatorOib: string;
  zki: string;
  /** OibPrimateljaRacuna: the business buyer's OIB (schema v1.10), only when one bought. */
  buyerOib: string | null;
}

/** What changes from one send of the same receipt to the next. */
export interface Dispatch {
  /** IdPoruke: a new UUID for every send, retries included. */
  messageId: string;
  /** DatumVrijeme: when this message is sent, `dd.MM.yyyyTHH:mm:ss`. */
  sentAt: string;
  /** NakDost: true when the receipt was issued without a JIR and is delivered late. */
  lateDelivery: boolean;
}

const escapeXml = (value: string) =>
  value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
/**
 * Text as exclusive c14n writes it (W3C Canonical XML 1.0, 2.3: `&`, `<`, `>` and CR escaped,
 * nothing else), so the request element is its own canonical form and is signed as written.
 */
const canonicalText = (value: string) =>
  value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/\r/g, '&#xD;');
const el = (name: string, value: string) => `<tns:${name}>${canonicalText(value)}</tns:${name}>`;

/**
 * The unsigned RacunZahtjev in its SOAP 1.1 envelope; the signature is appended to RacunZahtjev.
 * The element is written in its exclusive-c14n form (`xml-signature.ts` signs it as it stands):
 * keep the namespace declared on it, no empty-element tags, text through `el`.
 */
export function racunEnvelope(facts: RacunFacts, dispatch: Dispatch): string {
  return envelope(
    `<tns:RacunZahtjev xmlns:tns="${CIS_NS}" Id="${REQUEST_ID}">${header(dispatch)}` +
      `<tns:Racun>${racunChildren(facts, dispatch)}</tns:Racun></tns:RacunZahtjev>`,
  );
}

/** The Id the change message's signature points at (`#PromijeniPodatkeRacunaZahtjev`). */
export const CHANGE_REQUEST_ID = 'PromijeniPodatkeRacunaZahtjev';

/** What a change of a fiscalised receipt tells CIS besides the receipt as first sent (specification v2.6 §2.1.5). */
export interface RacunChange {
  /** PromijenjeniNacinPlac: the payment method now. */
  payment: 'G' | 'K' | 'T' | 'O';
  /** PromijenjeniOibPrimateljaRacuna: the buyer's OIB now; null sends the empty element (none). */
  buyerOib: string | null;
}

/**
 * PromijeniPodatkeRacunaZahtjev (WSDL v1.9 operation `promijeniPodatkeRacuna`, the XSD's
 * RacunPPType): the receipt's data exactly as first sent, then the changed payment method and
 * buyer OIB. Same canonical form as `racunEnvelope`, so `signRequest` signs it as written.
 */
export function changeEnvelope(facts: RacunFacts, change: RacunChange, dispatch: Dispatch): string {
  const racun =
    racunChildren(facts, dispatch) +
    el('PromijenjeniNacinPlac', change.payment) +
    el('PromijenjeniOibPrimateljaRacuna', change.buyerOib ?? '');
  return envelope(
    `<tns:${CHANGE_REQUEST_ID} xmlns:tns="${CIS_NS}" Id="${CHANGE_REQUEST_ID}">${header(dispatch)}` +
      `<tns:Racun>${racun}</tns:Racun></tns:${CHANGE_REQUEST_ID}>`,
  );
}

const header = (dispatch: Dispatch) =>
  `<tns:Zaglavlje>${el('IdPoruke', dispatch.messageId)}${el('DatumVrijeme', dispatch.sentAt)}</tns:Zaglavlje>`;

/** RacunType's children in the schema's order (RacunPPType begins with the same). */
function racunChildren(facts: RacunFacts, dispatch: Dispatch): string {
  const taxes =
    facts.vatRegistered && facts.taxes.length > 0
      ? `<tns:Pdv>${facts.taxes
          .map((t) => `<tns:Porez>${el('Stopa', t.rate)}${el('Osnovica', t.base)}${el('Iznos', t.amount)}</tns:Porez>`)
          .join('')}</tns:Pdv>`
      : '';
  const racun = [
    el('Oib', facts.oib),
    el('USustPdv', String(facts.vatRegistered)),
    el('DatVrijeme', facts.issuedAt),
    el('OznSlijed', facts.sequenceMode),
    `<tns:BrRac>${el('BrOznRac', facts.sequence)}${el('OznPosPr', facts.premises)}${el('OznNapUr', facts.device)}</tns:BrRac>`,
    taxes,
    facts.exempt === null ? '' : el('IznosOslobPdv', facts.exempt),
    el('IznosUkupno', facts.total),
    el('NacinPlac', facts.payment),
    el('OibOper', facts.operatorOib),
    el('ZastKod', facts.zki),
    el('NakDost', String(dispatch.lateDelivery)),
    facts.buyerOib === null ? '' : el('OibPrimateljaRacuna', facts.buyerOib),
  ].join('');
  return racun;
}

/** The echo (section 2.5): unsigned; CIS answers the same text, proving TLS and reachability. */
export function echoEnvelope(text: string): string {
  return envelope(`<tns:EchoRequest xmlns:tns="${CIS_NS}">${escapeXml(text)}</tns:EchoRequest>`);
}

function envelope(body: string): string {
  return `<?xml version="1.0" encoding="UTF-8"?><soapenv:Envelope xmlns:soapenv="${SOAP_NS}"><soapenv:Body>${body}</soapenv:Body></soapenv:Envelope>`;
}

/** soapAction of each operation, as the WSDL names them. */
export const SOAP_ACTIONS = {
  racuni: 'http://e-porezna.porezna-uprava.hr/fiskalizacija/2012/services/FiskalizacijaService/racuni',
  echo: 'http://e-porezna.porezna-uprava.hr/fiskalizacija/2012/services/FiskalizacijaService/echo',
  promijeniPodatkeRacuna:
    'http://e-porezna.porezna-uprava.hr/fiskalizacija/2012/services/FiskalizacijaService/promijeniPodatkeRacuna',
} as const;

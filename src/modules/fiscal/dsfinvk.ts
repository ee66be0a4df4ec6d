/**
 * The DSFinV-K export (Digitale Schnittstelle der Finanzverwaltung für Kassensysteme) of one
 * device for a period, as pure functions: the Einzelaufzeichnungsmodul (Bonpos with its VAT,
 * price finding and sub-items; Bonkopf with its VAT, Abrechnungskreis and payments; references;
 * the TSE transactions), the Stammdatenmodul (per closing: the closing, the location, the Kasse,
 * its terminals, agencies, VAT keys, the TSE) and the Kassenabschlussmodul (business cases,
 * payment types, cash per currency), each a CSV with every column of the specification's table
 * in its order (DSFinV-K 2.3, chapters 3.1–3.3; `;` between columns, `"` around text, `.`
 * before decimals, CRLF), and the index.xml (GDPdU 01-09-2004) describing them. A table Portico
 * has nothing for (no tables or departments, no agencies, no terminals besides the Kasse) is
 * still written, with its header only, so an auditor's import finds every file index.xml names.
 */

export interface DsfinvkLine {
  position: number;
  /** DSFinV-K GV_TYP (Anhang C): `Umsatz` for goods, or the drawer's business case. */
  businessCase: string;
  text: string;
  code: string | null;
  quantityMilli: number;
  unit: string;
  rateBp: number;
  grossMinor: number;
  netMinor: number;
  taxMinor: number;
}

export interface DsfinvkBon {
  id: string;
  /** BON_NR, numeric: the TSE's transaction number (null when the TSE was not reached). */
  number: number | null;
  /** BON_NOTIZ: the printed document's number, or what the drawer's record says. */
  note: string;
  /** DSFinV-K BON_TYP. */
  type: 'Beleg' | 'AVBelegstorno' | 'AVBelegabbruch';
  storno: boolean;
  start: string;
  end: string;
  operator: string | null;
  customer: string | null;
  lines: DsfinvkLine[];
  /** Bar or Unbar, signed minor units. */
  payments: Array<{ type: 'Bar' | 'Unbar'; amountMinor: number }>;
  /** The Bon a storno takes back. */
  references: string | null;
  tse: {
    number: number | null;
    start: string | null;
    end: string | null;
    processType: string;
    processData: string;
    signatureCounter: number | null;
    signature: string | null;
    error: string | null;
  };
}

export interface DsfinvkClosing {
  number: number;
  /** When the closing was made (ISO) and the business day it closes (YYYY-MM-DD). */
  createdAt: string;
  day: string;
  bons: DsfinvkBon[];
}

export interface DsfinvkInput {
  kasseId: string;
  company: { name: string; street: string; postalCode: string; city: string; country: string; taxId: string | null };
  location: { name: string; street: string; postalCode: string; city: string };
  software: { name: string; version: string };
  currency: string;
  tse: { id: number; serial: string; algorithm: string; timeFormat: string; publicKey: string } | null;
  closings: DsfinvkClosing[];
}

/**
 * DSFinV-K's USt-Schlüssel: 1 19 %, 2 7 %, 3 10.7 %, 4 5.5 %, 5 nicht steuerbar (cash moved in
 * the drawer: float, cash in and out, the counted difference), 6 steuerfrei (a 0 % sale).
 */
const VAT_KEYS: ReadonlyArray<{ key: number; rateBp: number; text: string }> = [
  { key: 1, rateBp: 1900, text: 'Regelsteuersatz' },
  { key: 2, rateBp: 700, text: 'Ermäßigter Steuersatz' },
  { key: 3, rateBp: 1070, text: 'Durchschnittsatz (§ 24 Abs. 1 Nr. 3 UStG)' },
  { key: 4, rateBp: 550, text: 'Durchschnittsatz (§ 24 Abs. 1 Nr. 1 UStG)' },
  { key: 5, rateBp: 0, text: 'Nicht steuerbar' },
  { key: 6, rateBp: 0, text: 'Umsatzsteuerfrei' },
];
/** A sale's line by its rate; a drawer movement is outside VAT (key 5). */
const vatKey = (l: Pick<DsfinvkLine, 'rateBp' | 'businessCase'>) =>
  l.businessCase !== 'Umsatz' ? 5 : (VAT_KEYS.find((v) => v.rateBp === l.rateBp && v.key !== 5)?.key ?? 7);

const amount = (minor: number, places = 2) => {
  const sign = minor < 0 ? '-' : '';
  const abs = Math.abs(minor);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}${places > 2 ? '0'.repeat(places - 2) : ''}`;
};
const quantity = (milli: number) =>
  `${milli < 0 ? '-' : ''}${Math.floor(Math.abs(milli) / 1000)}.${String(Math.abs(milli) % 1000).padStart(3, '0')}`;
const text = (value: string | null) => `"${(value ?? '').replace(/"/g, '""')}"`;
/** DSFinV-K's timestamps: ISO 8601 local-free, `YYYY-MM-DDThh:mm:ss`. */
const stamp = (iso: string | null) => (iso ? new Date(iso).toISOString().slice(0, 19) : '');

type Column = { name: string; kind: 'text' | 'number' | 'date'; places?: number };
type Table = { file: string; name: string; description: string; columns: Column[]; rows: string[][] };

const t = (name: string): Column => ({ name, kind: 'text' });
const n = (name: string, places = 0): Column => ({ name, kind: 'number', places });
const d = (name: string): Column => ({ name, kind: 'date' });
const Z = [t('Z_KASSE_ID'), d('Z_ERSTELLUNG'), n('Z_NR')];

/** What every table group shares: the input, the table list, and each closing's Z_ key. */
interface Export {
  input: DsfinvkInput;
  add: (file: string, name: string, description: string, columns: Column[], rows: string[][]) => void;
  z: (c: DsfinvkClosing) => string[];
  each: <T>(f: (c: DsfinvkClosing, b: DsfinvkBon) => T[]) => T[];
  closingOf: Map<string, DsfinvkClosing>;
}

const bool = (v: boolean) => (v ? '1' : '0');
const none = '';

/** Every file of the export: name → bytes (UTF-8 text). */
export function dsfinvkFiles(input: DsfinvkInput): Map<string, string> {
  const tables: Table[] = [];
  const add = (file: string, name: string, description: string, columns: Column[], rows: string[][]) =>
    tables.push({ file, name, description, columns: [...Z, ...columns], rows });
  const z = (c: DsfinvkClosing) => [text(input.kasseId), stamp(c.createdAt), String(c.number)];
  const each = <T>(f: (c: DsfinvkClosing, b: DsfinvkBon) => T[]) =>
    input.closings.flatMap((c) => c.bons.flatMap((b) => f(c, b)));
  const closingOf = new Map(input.closings.flatMap((c) => c.bons.map((b) => [b.id, c] as const)));
  const x: Export = { input, add, z, each, closingOf };

  bonposTables(x);
  bonkopfTables(x);
  referenceAndTseTables(x);
  stammdatenTables(x);
  kassenabschlussTables(x);

  const files = new Map<string, string>();
  for (const table of tables)
    files.set(
      table.file,
      [table.columns.map((c) => c.name).join(';'), ...table.rows.map((r) => r.join(';'))].join('\r\n') + '\r\n',
    );
  files.set('index.xml', indexXml(tables));
  return files;
}

/** Einzelaufzeichnung (3.1.1): Bonpos and its detail tables, a row per line of each Bon. */
function bonposTables({ input, add, z, each }: Export): void {
  add(
    'lines.csv',
    'Bonpos',
    'Einzelaufzeichnung: Bonpositionen',
    [
      t('BON_ID'),
      t('POS_ZEILE'),
      t('GUTSCHEIN_NR'),
      t('ARTIKELTEXT'),
      t('POS_TERMINAL_ID'),
      t('GV_TYP'),
      t('GV_NAME'),
      n('INHAUS'),
      n('P_STORNO'),
      n('AGENTUR_ID'),
      t('ART_NR'),
      t('GTIN'),
      t('WARENGR_ID'),
      t('WARENGR'),
      n('MENGE', 3),
      n('FAKTOR', 3),
      t('EINHEIT'),
      n('STK_BR', 5),
    ],
    each((c, b) =>
      b.lines.map((l) => [
        ...z(c),
        text(b.id),
        text(String(l.position)),
        text(none),
        text(l.text),
        text(input.kasseId),
        text(l.businessCase),
        text(none),
        '0',
        bool(b.storno),
        none,
        text(l.code),
        text(none),
        text(none),
        text(none),
        quantity(l.quantityMilli),
        none,
        text(l.unit),
        amount(l.quantityMilli === 0 ? 0 : Math.round((l.grossMinor * 1000) / l.quantityMilli), 5),
      ]),
    ),
  );
  add(
    'lines_vat.csv',
    'Bonpos_USt',
    'Einzelaufzeichnung: Umsatzsteuer je Position',
    [t('BON_ID'), t('POS_ZEILE'), n('UST_SCHLUESSEL'), n('POS_BRUTTO', 5), n('POS_NETTO', 5), n('POS_UST', 5)],
    each((c, b) =>
      b.lines.map((l) => [
        ...z(c),
        text(b.id),
        text(String(l.position)),
        String(vatKey(l)),
        amount(l.grossMinor, 5),
        amount(l.netMinor, 5),
        amount(l.taxMinor, 5),
      ]),
    ),
  );
  add(
    'itemamounts.csv',
    'Bonpos_Preisfindung',
    'Einzelaufzeichnung: Preisfindung je Position (keine: Portico druckt den Preis, wie er ist)',
    [t('BON_ID'), t('POS_ZEILE'), t('TYP'), n('UST_SCHLUESSEL'), n('PF_BRUTTO', 5), n('PF_NETTO', 5), n('PF_UST', 5)],
    [],
  );
  add(
    'subitems.csv',
    'Bonpos_Zusatzinfo',
    'Einzelaufzeichnung: Zusatzinformationen je Position (keine Warenzusammenstellungen)',
    [
      t('BON_ID'),
      t('POS_ZEILE'),
      t('ZI_ART_NR'),
      t('ZI_GTIN'),
      t('ZI_NAME'),
      t('ZI_WARENGR_ID'),
      t('ZI_WARENGR'),
      n('ZI_MENGE', 3),
      n('ZI_FAKTOR', 3),
      t('ZI_EINHEIT'),
      n('ZI_UST_SCHLUESSEL'),
      n('ZI_BASISPREIS_BRUTTO', 5),
      n('ZI_BASISPREIS_NETTO', 5),
      n('ZI_BASISPREIS_UST', 5),
    ],
    [],
  );
}

/** Einzelaufzeichnung (3.1.2): Bonkopf, its VAT, allocation groups and payments, a row per Bon. */
function bonkopfTables({ input, add, z, each }: Export): void {
  add(
    'transactions.csv',
    'Bonkopf',
    'Einzelaufzeichnung: Bonkopf',
    [
      t('BON_ID'),
      n('BON_NR'),
      t('BON_TYP'),
      t('BON_NAME'),
      t('TERMINAL_ID'),
      n('BON_STORNO'),
      d('BON_START'),
      d('BON_ENDE'),
      t('BEDIENER_ID'),
      t('BEDIENER_NAME'),
      n('UMS_BRUTTO', 2),
      t('KUNDE_NAME'),
      t('KUNDE_ID'),
      t('KUNDE_TYP'),
      t('KUNDE_STRASSE'),
      t('KUNDE_PLZ'),
      t('KUNDE_ORT'),
      t('KUNDE_LAND'),
      t('KUNDE_USTID'),
      t('BON_NOTIZ'),
    ],
    each((c, b) => [
      [
        ...z(c),
        text(b.id),
        b.number === null ? none : String(b.number),
        text(b.type),
        text(none),
        text(input.kasseId),
        bool(b.storno),
        stamp(b.start),
        stamp(b.end),
        text(none),
        text(b.operator),
        amount(sum(b.lines.map((l) => l.grossMinor))),
        text(b.customer),
        text(none),
        text(none),
        text(none),
        text(none),
        text(none),
        text(none),
        text(none),
        text(b.note),
      ],
    ]),
  );
  add(
    'transactions_vat.csv',
    'Bonkopf_USt',
    'Einzelaufzeichnung: Umsatzsteuer je Bon',
    [t('BON_ID'), n('UST_SCHLUESSEL'), n('BON_BRUTTO', 2), n('BON_NETTO', 2), n('BON_UST', 2)],
    each((c, b) =>
      byKey(b.lines).map((v) => [...z(c), text(b.id), String(v.key), amount(v.gross), amount(v.net), amount(v.tax)]),
    ),
  );
  add(
    'allocation_groups.csv',
    'Bonkopf_AbrKreis',
    'Einzelaufzeichnung: Abrechnungskreise (keine: Portico führt keine Tische oder Abteilungen)',
    [t('BON_ID'), t('ABRECHNUNGSKREIS')],
    [],
  );
  add(
    'datapayment.csv',
    'Bonkopf_Zahlarten',
    'Einzelaufzeichnung: Zahlarten je Bon',
    [
      t('BON_ID'),
      t('ZAHLART_TYP'),
      t('ZAHLART_NAME'),
      t('ZAHLWAEH_CODE'),
      n('ZAHLWAEH_BETRAG', 2),
      n('BASISWAEH_BETRAG', 2),
      t('KASSENSCHUBLADENNR'),
    ],
    each((c, b) =>
      b.payments.map((p) => [
        ...z(c),
        text(b.id),
        text(p.type),
        text(p.type === 'Bar' ? 'Bargeld' : 'Karte'),
        text(input.currency),
        amount(p.amountMinor),
        amount(p.amountMinor),
        text(p.type === 'Bar' ? '1' : none),
      ]),
    ),
  );
}

/** Einzelaufzeichnung (3.1.2): the references between Bons and the TSE transactions. */
function referenceAndTseTables({ input, add, z, each, closingOf }: Export): void {
  add(
    'references.csv',
    'Bon_Referenzen',
    'Einzelaufzeichnung: Referenzen',
    [
      t('BON_ID'),
      t('POS_ZEILE'),
      t('REF_TYP'),
      t('REF_NAME'),
      d('REF_DATUM'),
      t('REF_Z_KASSE_ID'),
      n('REF_Z_NR'),
      t('REF_BON_ID'),
    ],
    each((c, b) => {
      if (!b.references) return [];
      // The Bon taken back may sit in an earlier closing, outside this export: its closing left empty then.
      const ref = closingOf.get(b.references);
      return [
        [
          ...z(c),
          text(b.id),
          text(none),
          text('Transaktion'),
          text(none),
          ref ? stamp(ref.createdAt) : none,
          text(input.kasseId),
          ref ? String(ref.number) : none,
          text(b.references),
        ],
      ];
    }),
  );
  add(
    'transactions_tse.csv',
    'TSE_Transaktionen',
    'Einzelaufzeichnung: TSE-Transaktionen',
    [
      t('BON_ID'),
      n('TSE_ID'),
      n('TSE_TANR'),
      d('TSE_TA_START'),
      d('TSE_TA_ENDE'),
      t('TSE_TA_VORGANGSART'),
      n('TSE_TA_SIGZ'),
      t('TSE_TA_SIG'),
      t('TSE_TA_FEHLER'),
      t('TSE_TA_VORGANGSDATEN'),
    ],
    each((c, b) => [
      [
        ...z(c),
        text(b.id),
        String(input.tse?.id ?? 1),
        b.tse.number === null ? none : String(b.tse.number),
        stamp(b.tse.start),
        stamp(b.tse.end),
        text(b.tse.processType),
        b.tse.signatureCounter === null ? none : String(b.tse.signatureCounter),
        text(b.tse.signature),
        text(b.tse.error ? 'TSE ausgefallen' : none),
        text(b.tse.processData),
      ],
    ]),
  );
}

/** Stammdaten (3.2), per closing: the closing, the location, the till, its terminal, VAT keys and the TSE. */
function stammdatenTables({ input, add, z }: Export): void {
  const co = input.company;
  add(
    'cashpointclosing.csv',
    'Stamm_Abschluss',
    'Stammdaten: Kassenabschluss',
    [
      d('Z_BUCHUNGSTAG'),
      t('TAXONOMIE_VERSION'),
      t('Z_START_ID'),
      t('Z_ENDE_ID'),
      t('NAME'),
      t('STRASSE'),
      t('PLZ'),
      t('ORT'),
      t('LAND'),
      t('STNR'),
      t('USTID'),
      n('Z_SE_ZAHLUNGEN', 2),
      n('Z_SE_BARZAHLUNGEN', 2),
    ],
    input.closings.map((c) => [
      ...z(c),
      `${c.day}T00:00:00`,
      text(TAXONOMY_VERSION),
      text(c.bons[0]?.id ?? none),
      text(c.bons.at(-1)?.id ?? none),
      text(co.name),
      text(co.street),
      text(co.postalCode),
      text(co.city),
      text(co.country),
      text(none),
      text(co.taxId),
      amount(paid(c)),
      amount(paid(c, 'Bar')),
    ]),
  );
  add(
    'location.csv',
    'Stamm_Orte',
    'Stammdaten: Ort',
    [t('LOC_NAME'), t('LOC_STRASSE'), t('LOC_PLZ'), t('LOC_ORT'), t('LOC_LAND'), t('LOC_USTID')],
    input.closings.map((c) => [
      ...z(c),
      text(input.location.name),
      text(input.location.street),
      text(input.location.postalCode),
      text(input.location.city),
      text('DEU'),
      text(co.taxId),
    ]),
  );
  add(
    'cashregister.csv',
    'Stamm_Kassen',
    'Stammdaten: Kasse',
    [
      t('KASSE_BRAND'),
      t('KASSE_MODELL'),
      t('KASSE_SERIENNR'),
      t('KASSE_SW_BRAND'),
      t('KASSE_SW_VERSION'),
      t('KASSE_BASISWAEH_CODE'),
      n('KEINE_UST_ZUORDNUNG'),
    ],
    input.closings.map((c) => [
      ...z(c),
      text(input.software.name),
      text('Cloud'),
      text(input.kasseId),
      text(input.software.name),
      text(input.software.version),
      text(input.currency),
      '0',
    ]),
  );
  add(
    'slaves.csv',
    'Stamm_Terminals',
    'Stammdaten: Erfassungsterminals (keine: jede Kasse schließt selbst ab)',
    [
      t('TERMINAL_ID'),
      t('TERMINAL_BRAND'),
      t('TERMINAL_MODELL'),
      t('TERMINAL_SERIENNR'),
      t('TERMINAL_SW_BRAND'),
      t('TERMINAL_SW_VERSION'),
    ],
    [],
  );
  add(
    'pa.csv',
    'Stamm_Agenturen',
    'Stammdaten: Agenturen (keine: Portico erfasst keine Umsätze für Rechnung Dritter)',
    [
      n('AGENTUR_ID'),
      t('AGENTUR_NAME'),
      t('AGENTUR_STRASSE'),
      t('AGENTUR_PLZ'),
      t('AGENTUR_ORT'),
      t('AGENTUR_LAND'),
      t('AGENTUR_STNR'),
      t('AGENTUR_USTID'),
    ],
    [],
  );
  add(
    'vat.csv',
    'Stamm_USt',
    'Stammdaten: Umsatzsteuer',
    [n('UST_SCHLUESSEL'), n('UST_SATZ', 2), t('UST_BESCHR')],
    input.closings.flatMap((c) => VAT_KEYS.map((v) => [...z(c), String(v.key), amount(v.rateBp), text(v.text)])),
  );
  const certificateParts = ['I', 'II', 'III', 'IV', 'V', 'VI', 'VII'];
  add(
    'tse.csv',
    'Stamm_TSE',
    'Stammdaten: TSE',
    [
      n('TSE_ID'),
      t('TSE_SERIAL'),
      t('TSE_SIG_ALGO'),
      t('TSE_ZEITFORMAT'),
      t('TSE_PD_ENCODING'),
      t('TSE_PUBLIC_KEY'),
      ...certificateParts.map((p) => t(`TSE_ZERTIFIKAT_${p}`)),
    ],
    input.tse
      ? input.closings.map((c) => [
          ...z(c),
          String(input.tse!.id),
          text(input.tse!.serial),
          text(input.tse!.algorithm),
          text(input.tse!.timeFormat),
          text('UTF-8'),
          text(input.tse!.publicKey),
          // The cloud TSE's certificate is not part of its API's answers Portico keeps: in the TAR export.
          ...certificateParts.map(() => text(none)),
        ])
      : [],
  );
}

/** Kassenabschluss (3.3): the business cases, payment types and cash per currency of each closing. */
function kassenabschlussTables({ input, add, z }: Export): void {
  add(
    'businesscases.csv',
    'Z_GV_Typ',
    'Kassenabschluss: Geschäftsvorfälle',
    [
      t('GV_TYP'),
      t('GV_NAME'),
      n('AGENTUR_ID'),
      n('UST_SCHLUESSEL'),
      n('Z_UMS_BRUTTO', 2),
      n('Z_UMS_NETTO', 2),
      n('Z_UST', 2),
    ],
    input.closings.flatMap((c) => {
      const lines = c.bons.filter((b) => b.type !== 'AVBelegabbruch').flatMap((b) => b.lines);
      const cases = [...new Set(lines.map((l) => l.businessCase))].sort((a, b) =>
        a === 'Umsatz' ? -1 : b === 'Umsatz' ? 1 : a.localeCompare(b),
      );
      return cases.flatMap((gv) =>
        byKey(lines.filter((l) => l.businessCase === gv)).map((v) => [
          ...z(c),
          text(gv),
          text(none),
          '0',
          String(v.key),
          amount(v.gross),
          amount(v.net),
          amount(v.tax),
        ]),
      );
    }),
  );
  add(
    'payment.csv',
    'Z_Zahlart',
    'Kassenabschluss: Zahlarten',
    [t('ZAHLART_TYP'), t('ZAHLART_NAME'), n('Z_ZAHLART_BETRAG', 2)],
    input.closings.flatMap((c) =>
      (['Bar', 'Unbar'] as const).flatMap((type) =>
        c.bons.some((b) => b.payments.some((p) => p.type === type))
          ? [[...z(c), text(type), text(type === 'Bar' ? 'Bargeld' : 'Karte'), amount(paid(c, type))]]
          : [],
      ),
    ),
  );
  // The cash the drawer should hold per currency (Kassensturzfähigkeit): every Bar payment of the
  // closing, the float, cash in and out and the counted difference among them, so it is the count.
  add(
    'cash_per_currency.csv',
    'Z_Waehrungen',
    'Kassenabschluss: Bargeld je Währung',
    [t('ZAHLART_WAEH'), n('ZAHLART_BETRAG_WAEH', 2)],
    input.closings.flatMap((c) =>
      c.bons.some((b) => b.payments.some((p) => p.type === 'Bar'))
        ? [[...z(c), text(input.currency), amount(paid(c, 'Bar'))]]
        : [],
    ),
  );
}

/** The taxonomy the tables follow (Stamm_Abschluss.TAXONOMIE_VERSION, index.xml). */
const TAXONOMY_VERSION = '2.3';

function paid(c: DsfinvkClosing, type?: 'Bar' | 'Unbar'): number {
  return sum(c.bons.flatMap((b) => b.payments.filter((p) => !type || p.type === type).map((p) => p.amountMinor)));
}

function sum(values: number[]): number {
  return values.reduce((a, b) => a + b, 0);
}

/** Gross, net and tax per USt-Schlüssel, by key. */
function byKey(lines: readonly DsfinvkLine[]) {
  const out = new Map<number, { key: number; gross: number; net: number; tax: number }>();
  for (const l of lines) {
    const key = vatKey(l);
    const v = out.get(key) ?? { key, gross: 0, net: 0, tax: 0 };
    v.gross += l.grossMinor;
    v.net += l.netMinor;
    v.tax += l.taxMinor;
    out.set(key, v);
  }
  return [...out.values()].sort((a, b) => a.key - b.key);
}

const xml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** The GDPdU description of the tables, as the DSFinV-K ships it. */
function indexXml(tables: Table[]): string {
  const column = (c: Column) =>
    c.kind === 'number'
      ? `<VariableColumn><Name>${c.name}</Name><Numeric>${c.places ? `<Accuracy>${c.places}</Accuracy>` : ''}</Numeric></VariableColumn>`
      : c.kind === 'date'
        ? `<VariableColumn><Name>${c.name}</Name><Date><Format>YYYY-MM-DD"T"hh:mm:ss</Format></Date></VariableColumn>`
        : `<VariableColumn><Name>${c.name}</Name><AlphaNumeric/></VariableColumn>`;
  return `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE DataSet SYSTEM "gdpdu-01-09-2004.dtd">
<DataSet>
<Version>1.0</Version>
<DataSupplier><Name>Portico</Name><Location>DSFinV-K</Location><Comment>DSFinV-K ${TAXONOMY_VERSION}</Comment></DataSupplier>
<Media>
<Name>DSFinV-K</Name>
${tables
  .map(
    (tb) => `<Table>
<URL>${tb.file}</URL>
<Name>${xml(tb.name)}</Name>
<Description>${xml(tb.description)}</Description>
<DecimalSymbol>.</DecimalSymbol>
<DigitGroupingSymbol>,</DigitGroupingSymbol>
<VariableLength>
<ColumnDelimiter>;</ColumnDelimiter>
<RecordDelimiter>&#13;&#10;</RecordDelimiter>
<TextEncapsulator>"</TextEncapsulator>
${tb.columns.map(column).join('\n')}
</VariableLength>
</Table>`,
  )
  .join('\n')}
</Media>
</DataSet>
`;
}

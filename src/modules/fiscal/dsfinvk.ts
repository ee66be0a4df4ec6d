/**
 * The DSFinV-K export (Digitale Schnittstelle der Finanzverwaltung für Kassensysteme, v2.4) of
 * one device for a period, as pure functions: the Einzelaufzeichnungsmodul (Bonkopf, Bonpos,
 * their VAT and payments, the TSE transactions, references), the Stammdatenmodul (per closing:
 * the closing, the location, the Kasse, VAT keys, the TSE) and the Kassenabschlussmodul
 * (business cases and payments per closing), each a CSV as the specification's index.xml
 * describes it (`;` between columns, `"` around text, `.` before decimals, CRLF), and that
 * index.xml (GDPdU 01-09-2004).
 */

export interface DsfinvkLine {
  position: number;
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
  number: string;
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

/** DSFinV-K's USt-Schlüssel: 1 19 %, 2 7 %, 3 10.7 %, 4 5.5 %, 6 steuerfrei (0 %). */
export const VAT_KEYS: ReadonlyArray<{ key: number; rateBp: number; text: string }> = [
  { key: 1, rateBp: 1900, text: 'Regelsteuersatz' },
  { key: 2, rateBp: 700, text: 'Ermäßigter Steuersatz' },
  { key: 3, rateBp: 1070, text: 'Durchschnittsatz (§ 24 Abs. 1 Nr. 3 UStG)' },
  { key: 4, rateBp: 550, text: 'Durchschnittsatz (§ 24 Abs. 1 Nr. 1 UStG)' },
  { key: 6, rateBp: 0, text: 'Umsatzsteuerfrei' },
];
const vatKey = (rateBp: number) => VAT_KEYS.find((v) => v.rateBp === rateBp)?.key ?? 7;

export const amount = (minor: number, places = 2) => {
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

/** Every file of the export: name → bytes (UTF-8 text). */
export function dsfinvkFiles(input: DsfinvkInput): Map<string, string> {
  const tables: Table[] = [];
  const add = (file: string, name: string, description: string, columns: Column[], rows: string[][]) =>
    tables.push({ file, name, description, columns: [...Z, ...columns], rows });
  const z = (c: DsfinvkClosing) => [text(input.kasseId), stamp(c.createdAt), String(c.number)];
  const each = <T>(f: (c: DsfinvkClosing, b: DsfinvkBon) => T[]) =>
    input.closings.flatMap((c) => c.bons.flatMap((b) => f(c, b)));

  add(
    'transactions.csv',
    'Bonkopf',
    'Einzelaufzeichnung: Bonkopf',
    [
      t('BON_ID'),
      t('BON_NR'),
      t('BON_TYP'),
      t('BON_NAME'),
      t('TERMINAL_ID'),
      n('BON_STORNO'),
      d('BON_START'),
      d('BON_ENDE'),
      t('BEDIENER_NAME'),
      n('UMS_BRUTTO', 2),
      t('KUNDE_NAME'),
    ],
    each((c, b) => [
      [
        ...z(c),
        text(b.id),
        text(b.number),
        text(b.type),
        text(''),
        text(input.kasseId),
        b.storno ? '1' : '0',
        stamp(b.start),
        stamp(b.end),
        text(b.operator),
        amount(sum(b.lines.map((l) => l.grossMinor))),
        text(b.customer),
      ],
    ]),
  );
  add(
    'transactions_vat.csv',
    'Bonkopf_USt',
    'Einzelaufzeichnung: Umsatzsteuer je Bon',
    [t('BON_ID'), n('UST_SCHLUESSEL'), n('BON_BRUTTO', 2), n('BON_NETTO', 2), n('BON_UST', 2)],
    each((c, b) =>
      byRate(b.lines).map((v) => [
        ...z(c),
        text(b.id),
        String(vatKey(v.rateBp)),
        amount(v.gross),
        amount(v.net),
        amount(v.tax),
      ]),
    ),
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
      ]),
    ),
  );
  add(
    'lines.csv',
    'Bonpos',
    'Einzelaufzeichnung: Positionen',
    [
      t('BON_ID'),
      n('POS_ZEILE'),
      t('ARTIKELTEXT'),
      t('GV_TYP'),
      t('GV_NAME'),
      n('P_STORNO'),
      t('ART_NR'),
      n('MENGE', 3),
      t('EINHEIT'),
      n('STK_BR', 2),
    ],
    each((c, b) =>
      b.lines.map((l) => [
        ...z(c),
        text(b.id),
        String(l.position),
        text(l.text),
        text('Umsatz'),
        text(''),
        b.storno ? '1' : '0',
        text(l.code),
        quantity(l.quantityMilli),
        text(l.unit),
        amount(l.quantityMilli === 0 ? 0 : Math.round((l.grossMinor * 1000) / l.quantityMilli)),
      ]),
    ),
  );
  add(
    'lines_vat.csv',
    'Bonpos_USt',
    'Einzelaufzeichnung: Umsatzsteuer je Position',
    [t('BON_ID'), n('POS_ZEILE'), n('UST_SCHLUESSEL'), n('POS_BRUTTO', 2), n('POS_NETTO', 2), n('POS_UST', 2)],
    each((c, b) =>
      b.lines.map((l) => [
        ...z(c),
        text(b.id),
        String(l.position),
        String(vatKey(l.rateBp)),
        amount(l.grossMinor),
        amount(l.netMinor),
        amount(l.taxMinor),
      ]),
    ),
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
        b.tse.number === null ? '' : String(b.tse.number),
        stamp(b.tse.start),
        stamp(b.tse.end),
        text(b.tse.processType),
        b.tse.signatureCounter === null ? '' : String(b.tse.signatureCounter),
        text(b.tse.signature),
        text(b.tse.error ? 'TSE ausgefallen' : ''),
        text(b.tse.processData),
      ],
    ]),
  );
  add(
    'references.csv',
    'Bon_Referenzen',
    'Einzelaufzeichnung: Referenzen',
    [t('BON_ID'), n('POS_ZEILE'), t('REF_TYP'), t('REF_NAME'), t('REF_KASSE_ID'), t('REF_BON_ID')],
    each((c, b) =>
      b.references
        ? [[...z(c), text(b.id), '0', text('Transaktion'), text('Storno'), text(input.kasseId), text(b.references)]]
        : [],
    ),
  );

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
      t('USTID'),
      n('Z_SE_ZAHLUNGEN', 2),
      n('Z_SE_BARZAHLUNGEN', 2),
    ],
    input.closings.map((c) => [
      ...z(c),
      c.day,
      text('2.4'),
      text(c.bons[0]?.id ?? ''),
      text(c.bons.at(-1)?.id ?? ''),
      text(co.name),
      text(co.street),
      text(co.postalCode),
      text(co.city),
      text(co.country),
      text(co.taxId),
      amount(sum(c.bons.flatMap((b) => b.payments.map((p) => p.amountMinor)))),
      amount(sum(c.bons.flatMap((b) => b.payments.filter((p) => p.type === 'Bar').map((p) => p.amountMinor)))),
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
    'vat.csv',
    'Stamm_USt',
    'Stammdaten: Umsatzsteuer',
    [n('UST_SCHLUESSEL'), n('UST_SATZ', 2), t('UST_BESCHR')],
    input.closings.flatMap((c) => VAT_KEYS.map((v) => [...z(c), String(v.key), amount(v.rateBp), text(v.text)])),
  );
  add(
    'tse.csv',
    'Stamm_TSE',
    'Stammdaten: TSE',
    [n('TSE_ID'), t('TSE_SERIAL'), t('TSE_SIG_ALGO'), t('TSE_ZEITFORMAT'), t('TSE_PD_ENCODING'), t('TSE_PUBLIC_KEY')],
    input.tse
      ? input.closings.map((c) => [
          ...z(c),
          String(input.tse!.id),
          text(input.tse!.serial),
          text(input.tse!.algorithm),
          text(input.tse!.timeFormat),
          text('UTF-8'),
          text(input.tse!.publicKey),
        ])
      : [],
  );
  add(
    'businesscases.csv',
    'Z_GV_Typ',
    'Kassenabschluss: Geschäftsvorfälle',
    [t('GV_TYP'), t('GV_NAME'), n('UST_SCHLUESSEL'), n('Z_UMS_BRUTTO', 2), n('Z_UMS_NETTO', 2), n('Z_UST', 2)],
    input.closings.flatMap((c) =>
      byRate(c.bons.filter((b) => b.type !== 'AVBelegabbruch').flatMap((b) => b.lines)).map((v) => [
        ...z(c),
        text('Umsatz'),
        text(''),
        String(vatKey(v.rateBp)),
        amount(v.gross),
        amount(v.net),
        amount(v.tax),
      ]),
    ),
  );
  add(
    'payment.csv',
    'Z_Zahlart',
    'Kassenabschluss: Zahlarten',
    [t('ZAHLART_TYP'), t('ZAHLART_NAME'), n('Z_ZAHLART_BETRAG', 2)],
    input.closings.flatMap((c) =>
      (['Bar', 'Unbar'] as const).flatMap((type) => {
        const total = sum(c.bons.flatMap((b) => b.payments.filter((p) => p.type === type).map((p) => p.amountMinor)));
        return c.bons.some((b) => b.payments.some((p) => p.type === type))
          ? [[...z(c), text(type), text(type === 'Bar' ? 'Bargeld' : 'Karte'), amount(total)]]
          : [];
      }),
    ),
  );

  const files = new Map<string, string>();
  for (const table of tables)
    files.set(
      table.file,
      [table.columns.map((c) => c.name).join(';'), ...table.rows.map((r) => r.join(';'))].join('\r\n') + '\r\n',
    );
  files.set('index.xml', indexXml(tables));
  return files;
}

function sum(values: number[]): number {
  return values.reduce((a, b) => a + b, 0);
}

function byRate(lines: readonly DsfinvkLine[]) {
  const out = new Map<number, { rateBp: number; gross: number; net: number; tax: number }>();
  for (const l of lines) {
    const v = out.get(l.rateBp) ?? { rateBp: l.rateBp, gross: 0, net: 0, tax: 0 };
    v.gross += l.grossMinor;
    v.net += l.netMinor;
    v.tax += l.taxMinor;
    out.set(l.rateBp, v);
  }
  return [...out.values()].sort((a, b) => vatKey(a.rateBp) - vatKey(b.rateBp));
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
<DataSupplier><Name>Portico</Name><Location>DSFinV-K</Location><Comment>DSFinV-K 2.4</Comment></DataSupplier>
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

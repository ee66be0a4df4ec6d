/**
 * A certificate's issuer as an RFC 2253 string, for XML-DSig's X509IssuerName (XML Signature
 * 4.4.4 names RFC 2253): RDNs last to first, joined by ",", multi-valued RDNs by "+", the types
 * of RFC 2253 2.3 by keyword (CN, L, ST, O, OU, C, STREET, DC, UID) and every other type by its
 * dotted OID with the value as "#" and the hex of its BER encoding (2.4); string values escaped
 * once, as 2.4 says. Read from the certificate's DER, because Node's `X509Certificate.issuer`
 * is OpenSSL's display form: already escaped, its own type names (organizationIdentifier), and
 * one line per RDN.
 */

const KEYWORDS: Record<string, string> = {
  '2.5.4.3': 'CN',
  '2.5.4.7': 'L',
  '2.5.4.8': 'ST',
  '2.5.4.10': 'O',
  '2.5.4.11': 'OU',
  '2.5.4.6': 'C',
  '2.5.4.9': 'STREET',
  '0.9.2342.19200300.100.1.25': 'DC',
  '0.9.2342.19200300.100.1.1': 'UID',
};

interface Tlv {
  tag: number;
  /** The whole element, header included. */
  start: number;
  /** The content. */
  from: number;
  to: number;
}

function read(der: Buffer, at: number): Tlv {
  const tag = der[at]!;
  let length = der[at + 1]!;
  let from = at + 2;
  if (length & 0x80) {
    const bytes = length & 0x7f;
    if (bytes === 0 || bytes > 4) throw new Error('unsupported DER length');
    length = 0;
    for (let i = 0; i < bytes; i++) length = length * 256 + der[from + i]!;
    from += bytes;
  }
  if (from + length > der.length) throw new Error('truncated DER');
  return { tag, start: at, from, to: from + length };
}

function children(der: Buffer, parent: Tlv): Tlv[] {
  const out: Tlv[] = [];
  for (let at = parent.from; at < parent.to; ) {
    const child = read(der, at);
    out.push(child);
    at = child.to;
  }
  return out;
}

function oid(der: Buffer, t: Tlv): string {
  const bytes = der.subarray(t.from, t.to);
  const parts: number[] = [];
  let value = 0;
  for (const b of bytes) {
    value = value * 128 + (b & 0x7f);
    if (!(b & 0x80)) {
      parts.push(value);
      value = 0;
    }
  }
  const first = parts.shift() ?? 0;
  const head = first < 80 ? [Math.floor(first / 40), first % 40] : [2, first - 80];
  return [...head, ...parts].join('.');
}

function stringValue(der: Buffer, t: Tlv): string | null {
  const content = der.subarray(t.from, t.to);
  switch (t.tag) {
    case 0x0c: // UTF8String
    case 0x13: // PrintableString
    case 0x16: // IA5String
      return content.toString('utf8');
    case 0x14: // TeletexString, read as Latin-1 as most software does
      return content.toString('latin1');
    case 0x1e: // BMPString: UTF-16BE
      return Buffer.from(content).swap16().toString('utf16le');
    default:
      return null;
  }
}

/** RFC 2253 2.4: the special characters, and a leading "#" or space and a trailing space, escaped with "\". */
export function escapeRfc2253(value: string): string {
  let out = value.replace(/[,+"\\<>;]/g, (c) => `\\${c}`);
  if (out.startsWith('#') || out.startsWith(' ')) out = `\\${out}`;
  if (out.endsWith(' ') && !out.endsWith('\\ ')) out = `${out.slice(0, -1)}\\ `;
  return out;
}

/** The issuer of a DER certificate as RFC 2253 text. */
export function issuerRfc2253(certificateDer: Buffer): string {
  const certificate = read(certificateDer, 0);
  const tbs = children(certificateDer, certificate)[0]!;
  const fields = children(certificateDer, tbs);
  // [0] version is optional: the issuer is the third field after it.
  const issuer = fields[fields[0]!.tag === 0xa0 ? 3 : 2]!;
  const rdns = children(certificateDer, issuer).map((set) =>
    children(certificateDer, set)
      .map((attribute) => {
        const [type, value] = children(certificateDer, attribute) as [Tlv, Tlv];
        const dotted = oid(certificateDer, type);
        const keyword = KEYWORDS[dotted];
        const text = keyword ? stringValue(certificateDer, value) : null;
        if (keyword && text !== null) return `${keyword}=${escapeRfc2253(text)}`;
        return `${dotted}=#${certificateDer.subarray(value.start, value.to).toString('hex')}`;
      })
      .join('+'),
  );
  return rdns.reverse().join(',');
}

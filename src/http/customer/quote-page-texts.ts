import type { Language } from '../../modules/i18n/index.ts';

/** The customer's page of a sent quotation, in the three languages a quotation is sent in. */
const en = {
  title: 'Quotation {number}',
  from: 'From {company}',
  validUntil: 'Valid until',
  issued: 'Issued',
  pdf: 'Download the quotation (PDF)',
  lines: 'Items',
  tax: 'Tax',
  total: 'Total',
  acceptHeading: 'Accept the quotation',
  acceptIntro:
    'By accepting you confirm the order at these prices. {company} will contact you about delivery and payment.',
  name: 'Your name',
  reference: 'Your purchase order reference (optional)',
  note: 'Note (optional)',
  accept: 'Accept the quotation',
  declineHeading: 'Decline the quotation',
  reason: 'Why are you declining?',
  decline: 'Decline the quotation',
  required: 'Please fill this in.',
  tooLong: 'This is too long (at most {max} characters).',
  accepted: 'You accepted this quotation on {date}. Thank you: {company} has been told.',
  declined: 'You declined this quotation on {date}. {company} has been told.',
  expired: 'This quotation expired on {date}. Ask {company} for a new one.',
  closed: 'This quotation is no longer open. Ask {company} if you have questions.',
  conflict: 'This quotation was answered or closed in the meantime.',
  revised:
    '{company} revised this quotation after you opened it. Here is revision {revision}: read it through, then answer again.',
  unknownTitle: 'Link not valid',
  unknown: 'This link is not valid. Check that it was copied whole from the e-mail.',
  linkExpiredTitle: 'Link expired',
  linkExpired: 'This link has expired. Ask the shop to send the quotation again.',
  errorSummary: 'Please correct the marked fields.',
  badRequest: 'The form could not be read. Go back and try again.',
  failed: 'Something went wrong. Please try again later.',
};
type Key = keyof typeof en;

const hr: Record<Key, string> = {
  title: 'Ponuda {number}',
  from: 'Šalje {company}',
  validUntil: 'Vrijedi do',
  issued: 'Datum izdavanja',
  pdf: 'Preuzmite ponudu (PDF)',
  lines: 'Stavke',
  tax: 'PDV',
  total: 'Ukupno',
  acceptHeading: 'Prihvaćanje ponude',
  acceptIntro:
    'Prihvaćanjem potvrđujete narudžbu po ovim cijenama. {company} će vam se javiti oko isporuke i plaćanja.',
  name: 'Vaše ime',
  reference: 'Broj vaše narudžbenice (neobavezno)',
  note: 'Napomena (neobavezno)',
  accept: 'Prihvaćam ponudu',
  declineHeading: 'Odbijanje ponude',
  reason: 'Zašto odbijate ponudu?',
  decline: 'Odbijam ponudu',
  required: 'Molimo ispunite ovo polje.',
  tooLong: 'Predugo je (najviše {max} znakova).',
  accepted: 'Prihvatili ste ovu ponudu {date}. Hvala: {company} je obaviješten.',
  declined: 'Odbili ste ovu ponudu {date}. {company} je obaviješten.',
  expired: 'Ova ponuda je istekla {date}. Zatražite novu od: {company}.',
  closed: 'Ova ponuda više nije otvorena. Za pitanja se obratite: {company}.',
  conflict: 'Na ovu ponudu je u međuvremenu već odgovoreno ili je zatvorena.',
  revised:
    '{company} je izmijenio/la ovu ponudu nakon što ste je otvorili. Ovo je izmjena {revision}: pročitajte je pa ponovno odgovorite.',
  unknownTitle: 'Poveznica nije valjana',
  unknown: 'Ova poveznica nije valjana. Provjerite je li iz e-pošte kopirana cijela.',
  linkExpiredTitle: 'Poveznica je istekla',
  linkExpired: 'Ova poveznica je istekla. Zamolite trgovinu da vam ponudu pošalje ponovno.',
  errorSummary: 'Molimo ispravite označena polja.',
  badRequest: 'Obrazac nije moguće pročitati. Vratite se i pokušajte ponovno.',
  failed: 'Nešto je pošlo po zlu. Pokušajte ponovno kasnije.',
};

const de: Record<Key, string> = {
  title: 'Angebot {number}',
  from: 'Von {company}',
  validUntil: 'Gültig bis',
  issued: 'Ausgestellt',
  pdf: 'Angebot herunterladen (PDF)',
  lines: 'Positionen',
  tax: 'USt.',
  total: 'Gesamt',
  acceptHeading: 'Angebot annehmen',
  acceptIntro: 'Mit der Annahme bestellen Sie zu diesen Preisen. {company} meldet sich wegen Lieferung und Zahlung.',
  name: 'Ihr Name',
  reference: 'Ihre Bestellnummer (optional)',
  note: 'Anmerkung (optional)',
  accept: 'Angebot annehmen',
  declineHeading: 'Angebot ablehnen',
  reason: 'Warum lehnen Sie ab?',
  decline: 'Angebot ablehnen',
  required: 'Bitte füllen Sie dieses Feld aus.',
  tooLong: 'Das ist zu lang (höchstens {max} Zeichen).',
  accepted: 'Sie haben dieses Angebot am {date} angenommen. Danke: {company} ist informiert.',
  declined: 'Sie haben dieses Angebot am {date} abgelehnt. {company} ist informiert.',
  expired: 'Dieses Angebot ist am {date} abgelaufen. Fragen Sie {company} nach einem neuen.',
  closed: 'Dieses Angebot ist nicht mehr offen. Bei Fragen wenden Sie sich an {company}.',
  conflict: 'Dieses Angebot wurde inzwischen beantwortet oder geschlossen.',
  revised:
    '{company} hat dieses Angebot geändert, nachdem Sie es geöffnet hatten. Hier ist Fassung {revision}: lesen Sie sie durch und antworten Sie erneut.',
  unknownTitle: 'Link ungültig',
  unknown: 'Dieser Link ist ungültig. Prüfen Sie, ob er vollständig aus der E-Mail kopiert wurde.',
  linkExpiredTitle: 'Link abgelaufen',
  linkExpired: 'Dieser Link ist abgelaufen. Bitten Sie das Geschäft, das Angebot erneut zu senden.',
  errorSummary: 'Bitte korrigieren Sie die markierten Felder.',
  badRequest: 'Das Formular konnte nicht gelesen werden. Gehen Sie zurück und versuchen Sie es erneut.',
  failed: 'Etwas ist schiefgegangen. Bitte versuchen Sie es später erneut.',
};

const TEXTS: Record<Language, Record<Key, string>> = { en, hr, de };

export type QuotePageKey = Key;

/** The page's text in `language`, with its {placeholders} filled. */
export function quotePageText(language: Language, key: Key, params: Record<string, string | number> = {}): string {
  return TEXTS[language][key].replace(/\{(\w+)\}/g, (whole, name: string, at: number, all: string) => {
    if (!Object.hasOwn(params, name)) return whole;
    const value = String(params[name]);
    // Croatian and German dates end in a full stop ("26. 11. 2026."): a sentence ending with one prints one.
    return value.endsWith('.') && all[at + whole.length] === '.' ? value.slice(0, -1) : value;
  });
}

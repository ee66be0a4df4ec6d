import type { Language } from '../i18n/index.ts';

/**
 * The e-mail that carries a sent document, in the customer's language. A company may write its
 * own subject and text per language (the print template's placeholders: {number}, {total},
 * {dueDate}, {customerName}, {reference}); without one, these built-in texts are used. The
 * staff's personal message goes above the text, the quotation's link below it.
 */
export const BUILT_IN_TEMPLATES: Record<Language, { subject: string; body: string }> = {
  hr: {
    subject: '{document} {number}',
    body: 'Poštovani,\n\nu privitku vam šaljemo dokument {document} {number} na iznos {total}.\n\nSrdačan pozdrav,\n{company}',
  },
  de: {
    subject: '{document} {number}',
    body: 'Guten Tag,\n\nanbei erhalten Sie {document} {number} über {total}.\n\nMit freundlichen Grüßen\n{company}',
  },
  en: {
    subject: '{document} {number}',
    body: 'Hello,\n\nplease find attached {document} {number} for {total}.\n\nKind regards,\n{company}',
  },
};

/** The line that carries the customer's link to a quotation. */
export const QUOTE_LINK_TEXT: Record<Language, (link: string, until: string) => string> = {
  hr: (link, until) =>
    `Ponudu možete pregledati, prihvatiti ili odbiti ovdje (poveznica vrijedi do ${until}):\n${link}`,
  de: (link, until) =>
    `Sie können das Angebot hier ansehen, annehmen oder ablehnen (der Link gilt bis ${until}):\n${link}`,
  en: (link, until) => `You can read, accept or decline the quotation here (the link works until ${until}):\n${link}`,
};

/** An inquiry's reply: the subject refers to what the customer asked about. */
export const REPLY_SUBJECT: Record<Language, (subject: string) => string> = {
  hr: (subject) => `Re: ${subject}`,
  de: (subject) => `Re: ${subject}`,
  en: (subject) => `Re: ${subject}`,
};

/** The line above the inquirer's own words, quoted below a reply: which message is answered. */
export const REPLY_QUOTE_INTRO: Record<Language, (date: string) => string> = {
  hr: (date) => `Vaš upit od ${date}:`,
  de: (date) => `Ihre Anfrage vom ${date}:`,
  en: (date) => `Your inquiry of ${date}:`,
};

/** The built-in texts' extra words: filled like placeholders, but only in the built-in texts. */
export function fillBuiltIn(text: string, values: { document: string; company: string }): string {
  return text.replace(/\{(document|company)\}/g, (_whole, name: 'document' | 'company') => values[name]);
}

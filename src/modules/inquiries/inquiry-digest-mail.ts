import { resolveLanguage, type Language } from '../i18n/index.ts';
import type { IdGenerator } from '../../lib/ids.ts';
import type { MailRecipient } from '../companies/index.ts';
import type { EmailMessageRow } from '../notifications/index.ts';
import type { InquiryRow } from './types.ts';

/** Where each inquiry is read in the hub (absolute: it is clicked in a mail client), and the inbox. */
export interface HubLinks {
  inquiry(id: string): string;
  inbox: string;
}

/** The most inquiries one digest lists; the rest are counted, with a link to the inbox. */
export const DIGEST_LIST_MAX = 50;

const TEXTS: Record<
  Language,
  {
    one: (subject: string) => string;
    many: (n: number) => string;
    intro: (n: number) => string;
    more: (n: number) => string;
    open: string;
    footer: string;
  }
> = {
  hr: {
    one: (subject) => `Novi upit: ${subject}`,
    many: (n) => `Novi upiti s web-stranice: ${n}`,
    intro: (n) => (n === 1 ? 'Kupac je poslao upit s web-stranice.' : `Broj novih upita s web-stranice: ${n}.`),
    more: (n) => `Još upita koji ovdje nisu navedeni: ${n}. Svi su u pretincu:`,
    open: 'Otvori u Porticu',
    footer: 'Nove upite skupljamo u jednu poruku na nekoliko minuta.',
  },
  de: {
    one: (subject) => `Neue Anfrage: ${subject}`,
    many: (n) => `${n} neue Anfragen von der Website`,
    intro: (n) =>
      n === 1 ? 'Ein Kunde hat eine Anfrage über die Website gesendet.' : `${n} neue Anfragen über die Website.`,
    more: (n) => `${n} weitere Anfragen sind hier nicht aufgeführt; alle stehen im Posteingang:`,
    open: 'In Portico öffnen',
    footer: 'Neue Anfragen werden für einige Minuten in einer Nachricht gesammelt.',
  },
  en: {
    one: (subject) => `New inquiry: ${subject}`,
    many: (n) => `${n} new inquiries from the website`,
    intro: (n) => (n === 1 ? 'A customer sent an inquiry from the website.' : `${n} new inquiries from the website.`),
    more: (n) => `${n} more are not listed here; all of them are in the inbox:`,
    open: 'Open in Portico',
    footer: 'New inquiries are gathered into one message for a few minutes.',
  },
};

const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[ch as '&'] ?? ch,
  );
const excerpt = (text: string) => (text.length > 280 ? `${text.slice(0, 279)}…` : text);
const fromOf = (i: InquiryRow) => (i.name ? `${i.name} <${i.email}>` : i.email);
const when = (iso: string) => `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;

/** One digest in one language: subject, plain text and HTML, each inquiry with its hub link. */
export function renderInquiryDigest(
  inquiries: readonly InquiryRow[],
  total: number,
  language: Language,
  links: HubLinks,
): { subject: string; text: string; html: string } {
  const t = TEXTS[language];
  const subject = total === 1 && inquiries[0] ? t.one(inquiries[0].subject) : t.many(total);
  const rest = total - inquiries.length;
  const text = [
    t.intro(total),
    '',
    ...inquiries.flatMap((i) => [
      `${when(i.created_at)} · ${i.topic} · ${i.subject}`,
      `${fromOf(i)}${i.phone ? ` · ${i.phone}` : ''}`,
      excerpt(i.message),
      `${t.open}: ${links.inquiry(i.id)}`,
      '',
    ]),
    ...(rest > 0 ? [t.more(rest), links.inbox, ''] : []),
    '-- ',
    t.footer,
  ].join('\n');
  const html = [
    `<!doctype html><html lang="${language}"><body style="font-family:sans-serif;line-height:1.4">`,
    `<p>${escapeHtml(t.intro(total))}</p>`,
    '<ul style="padding-left:1.2em">',
    ...inquiries.map(
      (i) =>
        `<li style="margin-bottom:1em"><a href="${escapeHtml(links.inquiry(i.id))}"><strong>${escapeHtml(i.subject)}</strong></a>` +
        ` <span style="color:#555">(${escapeHtml(i.topic)}, ${escapeHtml(when(i.created_at))})</span><br>` +
        `${escapeHtml(fromOf(i))}${i.phone ? ` · ${escapeHtml(i.phone)}` : ''}<br>` +
        `<span style="white-space:pre-wrap">${escapeHtml(excerpt(i.message))}</span></li>`,
    ),
    '</ul>',
    ...(rest > 0
      ? [`<p>${escapeHtml(t.more(rest))} <a href="${escapeHtml(links.inbox)}">${escapeHtml(links.inbox)}</a></p>`]
      : []),
    `<p style="color:#555;font-size:small">${escapeHtml(t.footer)}</p>`,
    '</body></html>',
  ].join('\n');
  return { subject, text, html };
}

/** One staff-lane e-mail per recipient, each in their language. */
export function digestEmails(
  companyId: string,
  inquiries: readonly InquiryRow[],
  total: number,
  recipients: readonly MailRecipient[],
  opts: { now: string; newId: IdGenerator; links: HubLinks },
): EmailMessageRow[] {
  const byLanguage = new Map<Language, ReturnType<typeof renderInquiryDigest>>();
  return recipients.map((user) => {
    const language = resolveLanguage(user.locale);
    let mail = byLanguage.get(language);
    if (!mail) {
      mail = renderInquiryDigest(inquiries, total, language, opts.links);
      byLanguage.set(language, mail);
    }
    return {
      id: opts.newId('email'),
      company_id: companyId,
      to_address: user.email,
      subject: mail.subject,
      text_body: mail.text,
      html_body: mail.html,
      lane: 'staff',
      status: 'pending',
      attempts: 0,
      next_attempt_at: opts.now,
      locked_until: null,
      last_error: null,
      sent_at: null,
      created_at: opts.now,
    };
  });
}

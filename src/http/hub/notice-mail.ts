import { resolveLanguage } from '../../modules/i18n/index.ts';
import { paths } from './paths.ts';
import { hubTranslator, sayMessage, sayText } from './texts/index.ts';

/**
 * The shop's own e-mails about what its hub tells it (issue 34): a customer accepted or declined
 * a quotation online, CIS refused a receipt or it is overdue, an e-invoice exchange failed. The
 * same message as the hub's notification, in the recipient's language, as plain text and HTML,
 * with a link to the hub page it is about. New inquiries have their own digest (inquiry-digest-mail.ts).
 */
export const MAILED_NOTICES = /^(quote\.(accepted|declined)|fiscal\.|exchange\.)/;

const FOOTER = {
  hr: 'Ovu poruku šalje Portico vaše trgovine; iste obavijesti stoje u Porticu pod Obavijesti.',
  de: 'Diese Nachricht sendet das Portico Ihres Geschäfts; dieselben Hinweise stehen in Portico unter Benachrichtigungen.',
  en: "Sent by your shop's Portico; the same notices are in Portico under Notifications.",
} as const;
const OPEN = { hr: 'Otvori u Porticu', de: 'In Portico öffnen', en: 'Open in Portico' } as const;

const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[ch as '&'] ?? ch,
  );

/** Where a notice's subject is read in the hub: its page, else the notifications. */
function hubPath(subject: { type: string; id: string } | undefined): string {
  if (subject?.type === 'quotation') return paths.quotation(subject.id);
  if (subject?.type === 'sale') return paths.sale(subject.id);
  if (subject?.type === 'inquiry') return paths.inquiry(subject.id);
  return paths.notifications;
}

/** A renderer of notice e-mails whose links start at `base` (the hub as the shop reaches it). */
export function noticeMails(base: string) {
  return {
    mails: (kind: string) => MAILED_NOTICES.test(kind),
    render(
      note: {
        kind: string;
        title: string;
        body: string;
        params: Record<string, string>;
        subject?: { type: string; id: string };
      },
      locale: string,
    ): { subject: string; text: string; html: string } {
      const language = resolveLanguage(locale);
      const t = hubTranslator(language);
      const params = Object.fromEntries(Object.entries(note.params).map(([k, v]) => [k, sayText(t, v)]));
      const title = sayMessage(t, note.title, { key: `hub.notice.${note.kind}.title`, params });
      const body = sayMessage(t, note.body, { key: `hub.notice.${note.kind}.body`, params });
      const link = base + hubPath(note.subject);
      const text = [body, '', `${OPEN[language]}: ${link}`, '', '-- ', FOOTER[language]].join('\n');
      const html = [
        `<!doctype html><html lang="${language}"><body style="font-family:sans-serif;line-height:1.4">`,
        `<p><strong>${escapeHtml(title)}</strong></p>`,
        `<p>${escapeHtml(body)}</p>`,
        `<p><a href="${escapeHtml(link)}">${escapeHtml(OPEN[language])}</a></p>`,
        `<p style="color:#555;font-size:small">${escapeHtml(FOOTER[language])}</p>`,
        '</body></html>',
      ].join('\n');
      return { subject: title, text, html };
    },
  };
}
export type NoticeMails = ReturnType<typeof noticeMails>;

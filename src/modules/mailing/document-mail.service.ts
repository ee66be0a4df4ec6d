import { addFieldError, AppError, fieldErrors } from '../../lib/errors.ts';
import { MONEY_SCALE, parseScaled } from '../../lib/money.ts';
import type { Clock } from '../../lib/clock.ts';
import type { IdGenerator } from '../../lib/ids.ts';
import type { Store } from '../../db/store.ts';
import {
  fillPrintTemplate,
  toCompany,
  unknownPlaceholders,
  type CompanyDirectory,
  type Company,
} from '../companies/index.ts';
import type { CustomerReads } from '../customers/index.ts';
import { createFormatter, LANGUAGES, resolveLanguage, said, translate, type Language } from '../i18n/index.ts';
import type { EmailOutbox, MailAttachment, SentEmails } from '../notifications/index.ts';
import {
  issueQuotationLink,
  type QuotationLinkIssuer,
  type QuotationsService,
  type QuotationView,
} from '../quotations/index.ts';
import type { SalesService, SaleView } from '../sales/index.ts';
import type { MailingRepository } from './mailing.repository.ts';
import { BUILT_IN_TEMPLATES, fillBuiltIn, QUOTE_LINK_TEXT } from './mail-texts.ts';

export type SentDocumentType = 'quotation' | 'sale';

export interface SendRequest {
  to?: string;
  message?: string;
  /** `hr`, `de` or `en`; absent: the directory customer's language, else the company's. */
  locale?: string;
  includeDatasheets?: boolean;
}

export interface SendingView {
  id: string;
  documentType: SentDocumentType;
  documentId: string;
  to: string;
  locale: string;
  message: string | null;
  sentBy: { id: string; name: string };
  createdAt: string;
  /** `pending` (queued, or waiting for a retry), `sent` (the SMTP server took it) or `failed` (for good). */
  status: 'pending' | 'sent' | 'failed';
  attempts: number;
  sentAt: string | null;
  /** What the SMTP server answered: its acceptance, or the error of the last attempt. */
  serverAnswer: string | null;
  /**
   * A sale to a business buyer: whether its e-invoice XML went with the PDF, or which fields its
   * profile still lacked when it was sent (the PDF went alone). Null for a consumer or a quotation.
   */
  eInvoice: { attached: boolean; missing: string[] } | null;
  /** A sale's files as issued that the e-mail carries: the SHA-256 (hex) of the PDF and of the XML. */
  sha256: { pdf: string; eInvoice: string | null } | null;
}

export interface MailTemplateView {
  locale: Language;
  subject: string;
  body: string;
  /** False: the built-in text, not saved by the company. */
  custom: boolean;
}

type MailRepos = {
  mailing: MailingRepository;
  notifications: EmailOutbox & SentEmails;
  quotationLinks: QuotationLinkIssuer;
  companies: Pick<CompanyDirectory, 'findCompany' | 'findUser'>;
  customers: Pick<CustomerReads, 'find'>;
};

const EMAIL = /^[^\s@<>,;"]+@[^\s@<>,;"]+\.[^\s@<>,;"]+$/;
const SALE_TITLES = {
  invoice: 'document.invoice',
  cancellation: 'document.cancellation',
  credit_note: 'document.credit_note',
} as const;

/** Documents sent to customers by e-mail: the sending's record and its e-mail commit together. */
export function createDocumentMail(deps: {
  store: Store<MailRepos>;
  clock: Clock;
  newId: IdGenerator;
  quotations: Pick<QuotationsService, 'get'>;
  sales: Pick<SalesService, 'get' | 'eInvoiceReadiness'>;
  /** The SHA-256 of a sale's file as issued (stored first if this is its first use): what the e-mail carries. */
  issuedHash: (companyId: string, id: string, file: 'pdf' | 'e-invoice', locale: string) => Promise<string>;
  /** Without SMTP nothing could ever leave: sending is refused rather than queued forever. */
  emailEnabled: boolean;
  onEmailQueued: () => void;
}) {
  const { store, clock, newId } = deps;

  async function template(companyId: string, language: Language) {
    const saved = await store.repos.mailing.findTemplate(companyId, language);
    return saved ? { ...saved, custom: true } : { ...BUILT_IN_TEMPLATES[language], custom: false };
  }

  /** The shop's Reply-To, or the sending user's own address. */
  async function replyTo(companyId: string, userId: string): Promise<string | null> {
    const shop = await store.repos.mailing.findReplyTo(companyId);
    if (shop) return shop;
    return (await store.repos.companies.findUser(companyId, userId))?.email ?? null;
  }

  /** The directory customer the document is for, if it has one (a sale always has; a quotation once assigned). */
  async function documentCustomer(companyId: string, doc: QuotationView | SaleView, type: SentDocumentType) {
    const id = type === 'sale' ? (doc as SaleView).customer.id : (doc as QuotationView).directoryCustomerId;
    return id ? store.repos.customers.find(companyId, id) : undefined;
  }

  /**
   * Where and in which language a document goes when staff name neither: the directory
   * customer's e-mail (else the one on the document) and language (else the company's).
   */
  async function defaultsFor(
    companyId: string,
    doc: QuotationView | SaleView,
    type: SentDocumentType,
  ): Promise<{ to: string | null; language: Language }> {
    const customer = await documentCustomer(companyId, doc, type);
    const onDocument = type === 'sale' ? (doc as SaleView).customer.email : (doc as QuotationView).customer.email;
    const to = type === 'sale' ? onDocument : (customer?.email ?? onDocument);
    let language = customer?.language ? resolveLanguage(customer.language) : null;
    if (language === null) {
      const company = await store.repos.companies.findCompany(companyId);
      language = resolveLanguage(company?.locale);
    }
    return { to, language };
  }

  /**
   * A business buyer's accounting reads the e-invoice, so its sale's e-mail carries the XML beside
   * the PDF, when the document can be a valid e-invoice now; when it cannot (a line without a KPD
   * code, a buyer without a tax id…), the PDF goes alone and the sending names what was missing.
   * A consumer gets the PDF only (null).
   */
  async function eInvoiceOf(
    companyId: string,
    sale: SaleView,
  ): Promise<{ attached: boolean; missing: string[] } | null> {
    if (sale.customer.kind !== 'business' && !sale.customer.taxId) return null;
    const readiness = await deps.sales.eInvoiceReadiness(companyId, sale.id);
    if (!readiness) return null;
    const missing = Object.keys(readiness.missing);
    return { attached: missing.length === 0, missing };
  }

  return {
    replyTo,

    /** The address and language a sending of this document takes when staff name neither (the hub's form preselects them). */
    defaults: defaultsFor,

    /**
     * Queues the document's e-mail (the PDF is rendered when it is sent) and records the
     * sending; a quotation's e-mail carries a new link to the customer's page.
     */
    async send(
      actor: { companyId: string; userId: string },
      document: { type: SentDocumentType; id: string },
      input: SendRequest,
      linkBase: string,
    ): Promise<SendingView> {
      const { companyId } = actor;
      const doc =
        document.type === 'quotation'
          ? await deps.quotations.get(companyId, document.id)
          : await deps.sales.get(companyId, document.id);
      const details = fieldErrors();
      const defaults = await defaultsFor(companyId, doc, document.type);
      const to = (input.to?.trim() || defaults.to || '').trim();
      if (to === '') addFieldError(details, 'to', said('error.mail.noAddress'));
      else if (!EMAIL.test(to) || to.length > 254) addFieldError(details, 'to', said('error.email'));
      if (input.locale !== undefined && !(LANGUAGES as readonly string[]).includes(input.locale))
        addFieldError(details, 'locale', said('error.oneOf', { values: LANGUAGES.join(', ') }));
      if (Object.keys(details).length > 0) throw AppError.invalid(details);
      if (document.type === 'quotation' && (doc as QuotationView).status !== 'approved')
        throw new AppError('quotation_not_open', said('error.mail.quotationNotOpen'));
      if (!deps.emailEnabled) throw new AppError('unavailable', said('error.mail.notConfigured'));

      const companyRow = await store.repos.companies.findCompany(companyId);
      const company = toCompany(companyRow!);
      // Staff's pick, else the customer's language, else the company's.
      const language = input.locale === undefined ? defaults.language : resolveLanguage(input.locale);
      const written = await template(companyId, language);
      const text = composeText(company, language, doc, document.type, written);
      const now = clock.now();
      const emailId = newId('email');
      const sendingId = newId('sending');
      const reply = await replyTo(companyId, actor.userId);
      const attachment: MailAttachment = {
        document: document.type,
        companyId,
        id: doc.id,
        locale: language,
        datasheets: document.type === 'quotation' && input.includeDatasheets === true,
        file: 'pdf',
      };
      const einvoice = document.type === 'sale' ? await eInvoiceOf(companyId, doc as SaleView) : null;
      const attachments = einvoice?.attached
        ? [attachment, { ...attachment, file: 'e-invoice' as const }]
        : [attachment];
      // A sale's files are its documents as issued: stored once, so the hash recorded now is the
      // hash of what the e-mail carries whenever it goes out.
      const pdfSha = document.type === 'sale' ? await deps.issuedHash(companyId, doc.id, 'pdf', language) : null;
      const xmlSha = einvoice?.attached ? await deps.issuedHash(companyId, doc.id, 'e-invoice', language) : null;

      await store.unitOfWork(async (repos) => {
        let linkText = '';
        if (document.type === 'quotation') {
          const link = await issueQuotationLink(repos, { companyId, quotationId: doc.id, locale: language, now });
          const until = createFormatter(language, { currency: company.currency, timeZone: company.timezone }).date(
            new Date(link.expiresAt),
          );
          linkText = `\n\n${QUOTE_LINK_TEXT[language](`${linkBase}/q/${link.token}`, until)}`;
        }
        const personal = input.message?.trim() ? `${input.message.trim()}\n\n` : '';
        await repos.notifications.insertEmail({
          id: emailId,
          company_id: companyId,
          to_address: to,
          subject: text.subject.replace(/[\r\n]+/g, ' '),
          text_body: `${personal}${text.body}${linkText}\n`,
          status: 'pending',
          attempts: 0,
          next_attempt_at: now.toISOString(),
          locked_until: null,
          last_error: null,
          sent_at: null,
          created_at: now.toISOString(),
          reply_to: reply,
          attachments: JSON.stringify(attachments),
          smtp_response: null,
        });
        await repos.mailing.insertSending({
          id: sendingId,
          company_id: companyId,
          document_type: document.type,
          document_id: doc.id,
          email_id: emailId,
          to_address: to,
          locale: language,
          message: input.message?.trim() || null,
          sent_by: actor.userId,
          created_at: now.toISOString(),
          e_invoice: einvoice ? (einvoice.attached ? 'attached' : 'missing') : null,
          e_invoice_missing: einvoice && !einvoice.attached ? JSON.stringify(einvoice.missing) : null,
          sha256: pdfSha,
          e_invoice_sha256: xmlSha,
        });
      });
      deps.onEmailQueued();
      const sendings = await this.listSendings(companyId, document.type, doc.id);
      return sendings.find((s) => s.id === sendingId)!;
    },

    /** A document's sendings, oldest first, each with its e-mail's state. */
    async listSendings(companyId: string, type: SentDocumentType, id: string): Promise<SendingView[]> {
      const rows = await store.repos.mailing.listSendings(companyId, type, id);
      const emails = new Map(
        (
          await store.repos.notifications.findEmails(
            companyId,
            rows.map((r) => r.email_id),
          )
        ).map((e) => [e.id, e]),
      );
      return rows.map((row) => {
        const email = emails.get(row.email_id);
        const status = email?.status === 'sent' ? 'sent' : email?.status === 'failed' ? 'failed' : 'pending';
        return {
          id: row.id,
          documentType: row.document_type as SentDocumentType,
          documentId: row.document_id,
          to: row.to_address,
          locale: row.locale,
          message: row.message,
          sentBy: { id: row.sent_by, name: row.sent_by_name },
          createdAt: row.created_at,
          status,
          attempts: email?.attempts ?? 0,
          sentAt: email?.sent_at ?? null,
          serverAnswer: (status === 'sent' ? email?.smtp_response : email?.last_error) ?? null,
          eInvoice: row.e_invoice
            ? {
                attached: row.e_invoice === 'attached',
                missing: row.e_invoice_missing ? (JSON.parse(row.e_invoice_missing) as string[]) : [],
              }
            : null,
          sha256: row.sha256 ? { pdf: row.sha256, eInvoice: row.e_invoice_sha256 ?? null } : null,
        };
      });
    },

    async templates(companyId: string): Promise<{ replyTo: string | null; templates: MailTemplateView[] }> {
      return {
        replyTo: await store.repos.mailing.findReplyTo(companyId),
        templates: await Promise.all(
          LANGUAGES.map(async (locale) => {
            const t = await template(companyId, locale);
            return { locale, subject: t.subject, body: t.body, custom: t.custom };
          }),
        ),
      };
    },

    /**
     * Saves the reply-to address and each language's template; an empty subject and text go
     * back to the built-in one. Unknown placeholders are refused, naming the field.
     */
    async saveTemplates(
      companyId: string,
      input: { replyTo: string | null; templates: Array<{ locale: string; subject: string; body: string }> },
    ): Promise<void> {
      const details = fieldErrors();
      const replyTo = input.replyTo?.trim() || null;
      if (replyTo !== null && !EMAIL.test(replyTo)) addFieldError(details, 'replyTo', said('error.email'));
      for (const t of input.templates) {
        if (!(LANGUAGES as readonly string[]).includes(t.locale))
          addFieldError(details, `templates.${t.locale}`, said('error.mail.unknownLanguage'));
        for (const field of ['subject', 'body'] as const) {
          const unknown = unknownPlaceholders(t[field]);
          if (unknown.length > 0)
            addFieldError(
              details,
              `${field}_${t.locale}`,
              said('error.mail.unknownPlaceholder', {
                unknown: unknown.join(', '),
                known: '{number}, {total}, {dueDate}, {customerName}, {reference}',
              }),
            );
        }
        if ((t.subject.trim() === '') !== (t.body.trim() === ''))
          addFieldError(
            details,
            `${t.subject.trim() === '' ? 'subject' : 'body'}_${t.locale}`,
            said('error.mail.bothOrNeither'),
          );
      }
      if (Object.keys(details).length > 0) throw AppError.invalid(details);
      const at = clock.now().toISOString();
      await store.unitOfWork(async (repos) => {
        await repos.mailing.saveReplyTo(companyId, replyTo, at);
        for (const t of input.templates) {
          if (t.subject.trim() === '') await repos.mailing.deleteTemplate(companyId, t.locale);
          else
            await repos.mailing.saveTemplate({
              company_id: companyId,
              locale: t.locale,
              subject: t.subject.trim(),
              body: t.body.trim(),
              updated_at: at,
            });
        }
      });
    },
  };
}
export type DocumentMail = ReturnType<typeof createDocumentMail>;

/** The subject and text in `language`: the company's template filled like the print's, or the built-in one. */
function composeText(
  company: Company,
  language: Language,
  doc: QuotationView | SaleView,
  type: SentDocumentType,
  written: { subject: string; body: string; custom: boolean },
): { subject: string; body: string } {
  const format = createFormatter(language, { currency: doc.currency, timeZone: company.timezone });
  const sale = type === 'sale' ? (doc as SaleView) : null;
  const number = sale ? (sale.invoiceNumber ?? sale.number) : doc.number;
  const due = sale ? (sale.dueDate ?? sale.createdAt) : (doc as QuotationView).expiresAt;
  const values = {
    number,
    total: format.money(parseScaled(doc.totals.withTax, MONEY_SCALE)),
    dueDate: format.date(new Date(due)),
    customerName: sale ? sale.customer.name : (doc as QuotationView).customer.name,
    reference: number,
  };
  const title = translate(language, sale ? SALE_TITLES[sale.kind] : 'document.quotation');
  const fill = (text: string) => {
    const filled = fillPrintTemplate(text, values) ?? '';
    return written.custom ? filled : fillBuiltIn(filled, { document: title, company: company.name });
  };
  return { subject: fill(written.subject), body: fill(written.body) };
}

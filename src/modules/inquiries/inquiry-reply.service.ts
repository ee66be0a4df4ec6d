import type { CompaniesService } from '../companies/index.ts';
import type { CustomersService } from '../customers/index.ts';
import { createFormatter, resolveLanguage } from '../i18n/index.ts';
import { REPLY_QUOTE_INTRO, REPLY_SUBJECT, type DocumentMail } from '../mailing/index.ts';
import type { InquiriesService } from './inquiries.service.ts';
import type { InquiryReply } from './inquiry-replies.ts';

/**
 * The reply ("Re: <subject>") from the shop's reply-to address. An inquirer who is a directory
 * customer with a language (matched by e-mail: an inquiry has no customer link) is answered in
 * it, the quoted inquiry introduced in their words; anyone else gets the reply as before, in the
 * company's language. The admin API and the hub's inquiry page both reply through this.
 */
export function createInquiryReplies(deps: {
  inquiries: Pick<InquiriesService, 'get' | 'reply'>;
  companies: Pick<CompaniesService, 'getCompany'>;
  customers: Pick<CustomersService, 'languageOfEmail'>;
  mail: Pick<DocumentMail, 'replyTo'>;
}) {
  return {
    async reply(actor: { companyId: string; userId: string }, id: string, message: string): Promise<InquiryReply> {
      const inquiry = await deps.inquiries.get(actor.companyId, id);
      const company = await deps.companies.getCompany(actor.companyId);
      const customerLanguage = await deps.customers.languageOfEmail(actor.companyId, inquiry.email);
      const language = customerLanguage ?? resolveLanguage(company.locale);
      const asked = createFormatter(language, { currency: company.currency, timeZone: company.timezone }).date(
        new Date(inquiry.createdAt),
      );
      return deps.inquiries.reply(actor, id, message, {
        replyTo: await deps.mail.replyTo(actor.companyId, actor.userId),
        subject: REPLY_SUBJECT[language](inquiry.subject),
        quoteIntro: customerLanguage ? REPLY_QUOTE_INTRO[customerLanguage](asked) : null,
      });
    },
  };
}
export type InquiryReplies = ReturnType<typeof createInquiryReplies>;

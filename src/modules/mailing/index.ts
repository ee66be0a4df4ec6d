export {
  createDocumentMail,
  type DocumentMail,
  type MailTemplateView,
  type SendingView,
  type SendRequest,
  type SentDocumentType,
} from './document-mail.service.ts';
export { createDocumentAttachments } from './document-attachments.ts';
export { REPLY_QUOTE_INTRO, REPLY_SUBJECT } from './mail-texts.ts';

export type { InquiryFilter, InquiryRow } from './types.ts';
export { createInquiriesService, type InquiriesService, type Inquiry, type NewInquiry } from './inquiries.service.ts';
export { createProofOfWork } from './proof-of-work.ts';
export { createHostedCaptcha } from './hosted-captcha.ts';
export { honeypotFilled } from './spam-check.ts';
export type { InquiryReply } from './inquiry-replies.ts';
export { createInquiryDigests } from './inquiry-digests.ts';
export { createInquiryBudget } from './inquiry-budget.ts';
export type { HubLinks } from './inquiry-digest-mail.ts';

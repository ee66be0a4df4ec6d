export { createInquiriesService, type InquiriesService, type Inquiry, type NewInquiry, type BeforeCommit } from './inquiries.service.ts';

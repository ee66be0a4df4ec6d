export { createInquiriesService, type InquiriesService, type Inquiry, type NewInquiry, type BeforeCommit } from './inquiries.service.ts';
export { startInquiryWriterThread, type InquiryWriterThread } from './inquiry-writer.ts';

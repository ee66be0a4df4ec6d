export { type InquiryFilter, type InquiryRow } from './inquiries.repository.ts';
export { createInquiriesService, type InquiriesService, type Inquiry, type NewInquiry } from './inquiries.service.ts';

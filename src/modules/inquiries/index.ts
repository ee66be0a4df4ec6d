export { createInquiriesService, type InquiriesService, type Inquiry, type NewInquiry } from './inquiries.service.ts';

/** A reply to an inquiry written in the hub, and how its e-mail fared. */
export interface InquiryReply {
  id: string;
  message: string;
  author: { id: string; name: string };
  createdAt: string;
  /** `pending` until the SMTP server took it; `failed` for good. */
  emailStatus: 'pending' | 'sent' | 'failed';
  lastError: string | null;
}

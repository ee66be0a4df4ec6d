/**
 * How many live inquiries one API key, and one company, may send in a window before the rest
 * go to the spam folder: a contact form flooded past its rate limit's worth of real mail reaches
 * nobody's mailbox, yet nothing is lost (staff may release what was real). Counted per process,
 * in fixed windows: with several instances each gives its own budget.
 */
export interface InquiryBudget {
  /** Counts one inquiry; false when the key or the company is past its budget. */
  take(companyId: string, apiKeyId: string): boolean;
}

export function createInquiryBudget(opts: {
  perKey: number;
  perCompany: number;
  windowMs: number;
  now: () => number;
}): InquiryBudget {
  let windowEnds = 0;
  let counts = new Map<string, number>();
  const count = (key: string) => {
    const n = (counts.get(key) ?? 0) + 1;
    counts.set(key, n);
    return n;
  };
  return {
    take(companyId, apiKeyId) {
      const now = opts.now();
      if (now >= windowEnds) {
        // One map per window: the keys and companies seen in it, and nothing older.
        counts = new Map();
        windowEnds = now + opts.windowMs;
      }
      const byKey = count(`k:${apiKeyId}`);
      const byCompany = count(`c:${companyId}`);
      return byKey <= opts.perKey && byCompany <= opts.perCompany;
    },
  };
}

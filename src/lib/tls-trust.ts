import { createSecureContext, rootCertificates, type SecureContext } from 'node:tls';

const contexts = new Map<string, SecureContext>();

/**
 * The trust store for an outbound HTTPS service (CIS, the cloud TSE, the e-invoice intermediary):
 * the system's roots plus `extraCaPem` (a test double's CA), TLS 1.2 or newer, built once per
 * process and CA. Given to a client as `ca`, every new TLS connection would parse the system's
 * 121 roots again, about two thirds of a fresh connection's cost, which an invoice issued after
 * a pause pays each time; as one secure context they are parsed once.
 */
export function trustedContext(extraCaPem: string | null): SecureContext {
  const key = extraCaPem ?? '';
  let context = contexts.get(key);
  if (!context) {
    context = createSecureContext({
      ca: extraCaPem ? [...rootCertificates, extraCaPem] : [...rootCertificates],
      minVersion: 'TLSv1.2',
    });
    contexts.set(key, context);
  }
  return context;
}

/**
 * A hosted captcha (Cloudflare Turnstile, hCaptcha, reCAPTCHA: they share one verify protocol)
 * in place of the self-hosted proof of work, when the operator configures its verify URL and
 * secret. The page then renders the provider's widget itself (the embed does not: it loads no
 * other script) and sends its token as `captchaToken`.
 */
export interface HostedCaptcha {
  verify(token: string | undefined, remoteIp: string): Promise<boolean>;
}

export function createHostedCaptcha(options: { verifyUrl: string; secret: string; timeoutMs?: number }): HostedCaptcha {
  return {
    async verify(token, remoteIp) {
      if (!token || token.length > 4000) return false;
      try {
        const res = await fetch(options.verifyUrl, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ secret: options.secret, response: token, remoteip: remoteIp }),
          signal: AbortSignal.timeout(options.timeoutMs ?? 5_000),
        });
        if (!res.ok) return false;
        return ((await res.json()) as { success?: unknown }).success === true;
      } catch {
        return false; // the provider unreachable: held back as spam, for staff to release
      }
    },
  };
}

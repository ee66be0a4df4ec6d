/**
 * The origins a publishable key may be used from. An origin is compared exactly as the browser
 * sends it (`https://shop.example.com`, no path, no trailing slash); the one wildcard is
 * `http://localhost:*`, which a developer lists on purpose while building the site.
 */
export const ANY_LOCALHOST = 'http://localhost:*';

const LOCALHOST = /^http:\/\/localhost(?::\d{1,5})?$/;

/** The origin as a browser would send it, or null with the reason it is not one. */
export function normaliseOrigin(input: string): { origin: string } | { error: string } {
  const text = input.trim();
  if (text === ANY_LOCALHOST) return { origin: ANY_LOCALHOST };
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return { error: `"${text.slice(0, 100)}" is not an origin such as https://shop.example.com.` };
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    return { error: `"${text.slice(0, 100)}": only http and https origins.` };
  if (url.username || url.password || (url.pathname !== '/' && url.pathname !== '') || url.search || url.hash)
    return { error: `"${text.slice(0, 100)}": an origin has no path, query or credentials.` };
  if (!/^(?:[a-z0-9-]+\.)*[a-z0-9-]+$|^\[[0-9a-f:.]+\]$/.test(url.hostname))
    return { error: `"${text.slice(0, 100)}": not a host name (no wildcards; list each origin).` };
  if (text.replace(/\/$/, '').toLowerCase() !== url.origin.toLowerCase())
    return { error: `"${text.slice(0, 100)}" is not an exact origin; did you mean ${url.origin}?` };
  return { origin: url.origin };
}

/** Whether a browser's `Origin` header is one the list allows. */
export function originAllowed(allowed: readonly string[], origin: string): boolean {
  return allowed.includes(origin) || (LOCALHOST.test(origin) && allowed.includes(ANY_LOCALHOST));
}

/** The rows a preflight may match for this origin: itself, and the wildcard when it is a localhost one. */
export function originLookups(origin: string): string[] {
  return LOCALHOST.test(origin) ? [origin, ANY_LOCALHOST] : [origin];
}

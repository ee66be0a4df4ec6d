import { request, type Agent } from 'undici';

/** What `portico demo --json` prints that the hub benches use. */
export interface HubDemo {
  adminToken: string;
  locations: Array<{ id: string; apiKey: string }>;
  products: Array<{ id: string; barcode: string | null; units: Array<{ id: string }> }>;
  users: Array<{ email: string; password: string; role: string }>;
}

function cookiesOf(headers: Record<string, string | string[] | undefined>): string[] {
  const raw = headers['set-cookie'];
  return (Array.isArray(raw) ? raw : raw ? [raw] : []).map((c) => c.split(';')[0]!);
}

function csrfIn(html: string): string {
  const match = html.match(/name="_csrf" value="([^"]+)"/);
  if (!match) throw new Error('no CSRF field in the page');
  return match[1]!;
}

/**
 * Signed in to the hub as a browser is (the sign-in form, its CSRF cookie and token, the Origin
 * header), then the form page at `formPath` opened: the cookie header and the form's CSRF token
 * a bench posts that form with.
 */
export async function hubFormSession(
  origin: string,
  agent: Agent,
  user: { email: string; password: string },
  formPath: string,
): Promise<{ cookie: string; csrf: string }> {
  const signInPage = await request(`${origin}/hub/sign-in`, { dispatcher: agent });
  const signInCsrf = csrfIn(await signInPage.body.text());
  let cookies = cookiesOf(signInPage.headers);
  const signedIn = await request(`${origin}/hub/sign-in`, {
    dispatcher: agent,
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: cookies.join('; '), origin },
    body: new URLSearchParams({ email: user.email, password: user.password, _csrf: signInCsrf }).toString(),
  });
  await signedIn.body.text();
  if (signedIn.statusCode !== 303) throw new Error(`sign-in: ${signedIn.statusCode}`);
  cookies = [...cookies.filter((c) => !c.startsWith('portico_session=')), ...cookiesOf(signedIn.headers)];
  const formPage = await request(`${origin}${formPath}`, {
    dispatcher: agent,
    headers: { cookie: cookies.join('; ') },
  });
  const formHtml = await formPage.body.text();
  if (formPage.statusCode !== 200) throw new Error(`form: ${formPage.statusCode} ${formHtml.slice(0, 300)}`);
  const csrf = csrfIn(formHtml);
  cookies = [
    ...cookies,
    ...cookiesOf(formPage.headers).filter((c) => !cookies.some((o) => o.split('=')[0] === c.split('=')[0])),
  ];
  return { cookie: cookies.join('; '), csrf };
}

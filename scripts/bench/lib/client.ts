/** Logging in the benchmark's bidders through the real API (GET /api/csrf/, POST /api/login/). */
import type { Identity } from '../loadgen/http-load';

function mergeCookies(jar: Map<string, string>, res: Response): void {
  for (const line of res.headers.getSetCookie()) {
    const [pair] = line.split(';');
    const i = pair.indexOf('=');
    jar.set(pair.slice(0, i).trim(), pair.slice(i + 1).trim());
  }
}

const header = (jar: Map<string, string>) => [...jar].map(([k, v]) => `${k}=${v}`).join('; ');

/**
 * One bidder's login. No retry: a login refused `403 csrf` right after its `GET /api/csrf/` was a server bug
 * (a token handed out for a session whose write had failed; server/http/csrf.ts), and must show.
 */
export async function login(base: string, email: string, password: string): Promise<Identity> {
  const jar = new Map<string, string>();
  const first = await fetch(`${base}/api/csrf/`);
  mergeCookies(jar, first);
  const got = `GET /api/csrf/ ${first.status}, cookies ${[...jar.keys()].join('+') || 'none'}`;
  await first.arrayBuffer();
  const csrf = () => decodeURIComponent(jar.get('csrftoken') ?? '');
  const res = await fetch(`${base}/api/login/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie: header(jar), 'x-csrftoken': csrf(), origin: base },
    body: JSON.stringify({ email, password }),
  });
  mergeCookies(jar, res);
  if (res.status !== 200) throw new Error(`login ${email} (${got}): ${res.status} ${await res.text()}`);
  await res.arrayBuffer();
  if (!jar.has('csrftoken')) mergeCookies(jar, await fetch(`${base}/api/csrf/`, { headers: { cookie: header(jar) } }));
  return { cookie: header(jar), csrf: csrf() };
}

export async function loginAll(base: string, emails: string[], password: string): Promise<Identity[]> {
  const out: Identity[] = [];
  // A few at a time: argon2 verification is deliberately slow.
  for (let i = 0; i < emails.length; i += 4) out.push(...(await Promise.all(emails.slice(i, i + 4).map((e) => login(base, e, password)))));
  return out;
}

export async function getJson<T>(url: string): Promise<T> {
  const res = await fetch(url);
  if (!res.ok) throw new Error(`GET ${url}: ${res.status}`);
  return (await res.json()) as T;
}

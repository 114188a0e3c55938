/**
 * A fake Google OpenID provider on 127.0.0.1 for tests (never the real Google):
 *   GET  /jwks       published keys (an RS256 key generated at start)
 *   GET  /auth       the consent screen: redirects straight back with ?code&state for `identity`
 *   POST /token      code → access token (+ an ID token); checks client id/secret and PKCE
 *   GET  /userinfo   the identity for a Bearer access token
 * `env()` gives the GOOGLE_* variables of server/config.ts that point the app at it.
 */
import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWK } from 'jose';

export interface FakeIdentity {
  sub: string;
  email: string;
  email_verified: boolean;
  name?: string;
}

export interface SignOpts {
  /** Sign with a key that is NOT published (same kid): a forged token. */
  wrongKey?: boolean;
  issuer?: string;
  audience?: string;
  /** Seconds from now; negative for an expired token (default 3600). */
  expiresIn?: number;
  /** Extra or overriding claims. */
  claims?: Record<string, unknown>;
}

export interface FakeGoogle {
  url: string;
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** Who "signs in" at /auth next (the redirect flow). */
  identity: FakeIdentity;
  /** Requests to /token that were refused (wrong secret, code or PKCE verifier). */
  tokenErrors: string[];
  env(): Record<string, string>;
  signIdToken(identity: FakeIdentity, opts?: SignOpts): Promise<string>;
  close(): Promise<void>;
}

const KID = 'fake-key-1';

export async function startFakeGoogle(opts: { clientId?: string; clientSecret?: string } = {}): Promise<FakeGoogle> {
  const clientId = opts.clientId ?? 'test-client-id.apps.googleusercontent.com';
  const clientSecret = opts.clientSecret ?? 'test-client-secret';
  const keys = await generateKeyPair('RS256', { extractable: true });
  const forged = await generateKeyPair('RS256');
  const publicJwk: JWK = { ...(await exportJWK(keys.publicKey)), kid: KID, alg: 'RS256', use: 'sig' };

  const codes = new Map<string, { identity: FakeIdentity; redirectUri: string; challenge?: string }>();
  const accessTokens = new Map<string, FakeIdentity>();
  const server = http.createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const fake: FakeGoogle = {
    url,
    issuer: url,
    clientId,
    clientSecret,
    identity: { sub: '100000000000000000001', email: 'google.user@gmail.com', email_verified: true, name: 'Google Korisnik' },
    tokenErrors: [],
    env: () => ({
      GOOGLE_CLIENT_ID: clientId,
      GOOGLE_CLIENT_SECRET: clientSecret,
      GOOGLE_ISSUER: url,
      GOOGLE_JWKS_URL: `${url}/jwks`,
      GOOGLE_AUTH_URL: `${url}/auth`,
      GOOGLE_TOKEN_URL: `${url}/token`,
      GOOGLE_USERINFO_URL: `${url}/userinfo`,
    }),
    signIdToken: (identity, o = {}) => sign(identity, o.wrongKey ? forged.privateKey : keys.privateKey, {
      issuer: o.issuer ?? url,
      audience: o.audience ?? clientId,
      expiresIn: o.expiresIn ?? 3600,
      claims: o.claims ?? {},
    }),
    close: () => new Promise<void>((r) => server.close(() => r())),
  };

  server.on('request', (req, res) => {
    const u = new URL(req.url ?? '/', url);
    const json = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (req.method === 'GET' && u.pathname === '/jwks') return json(200, { keys: [publicJwk] });
    if (req.method === 'GET' && u.pathname === '/auth') {
      const redirectUri = u.searchParams.get('redirect_uri') ?? '';
      if (u.searchParams.get('client_id') !== clientId || !redirectUri) return json(400, { error: 'invalid_request' });
      const code = crypto.randomBytes(16).toString('hex');
      const challenge = u.searchParams.get('code_challenge') ?? undefined;
      codes.set(code, { identity: { ...fake.identity }, redirectUri, challenge });
      const back = new URL(redirectUri);
      back.searchParams.set('code', code);
      const state = u.searchParams.get('state');
      if (state) back.searchParams.set('state', state);
      res.writeHead(302, { location: back.toString() });
      return res.end();
    }
    if (req.method === 'POST' && u.pathname === '/token') {
      let raw = '';
      req.on('data', (c: Buffer) => (raw += c.toString()));
      req.on('end', () => {
        const p = new URLSearchParams(raw);
        const entry = codes.get(p.get('code') ?? '');
        const refuse = (why: string) => {
          fake.tokenErrors.push(why);
          json(400, { error: 'invalid_grant', error_description: why });
        };
        if (p.get('client_id') !== clientId || p.get('client_secret') !== clientSecret) return refuse('client');
        if (!entry) return refuse('code');
        codes.delete(p.get('code')!);
        if (entry.redirectUri !== p.get('redirect_uri')) return refuse('redirect_uri');
        if (entry.challenge) {
          const verifier = p.get('code_verifier') ?? '';
          const expected = crypto.createHash('sha256').update(verifier).digest('base64url');
          if (expected !== entry.challenge) return refuse('pkce');
        }
        const accessToken = crypto.randomBytes(16).toString('hex');
        accessTokens.set(accessToken, entry.identity);
        void fake.signIdToken(entry.identity).then((idToken) =>
          json(200, { access_token: accessToken, token_type: 'Bearer', expires_in: 3600, scope: 'openid email profile', id_token: idToken }),
        );
      });
      return;
    }
    if (req.method === 'GET' && u.pathname === '/userinfo') {
      // node-oauth sends the token as ?access_token= unless told to use the header; accept both.
      const bearer = (req.headers.authorization ?? '').replace(/^Bearer /, '');
      const identity = accessTokens.get(bearer || (u.searchParams.get('access_token') ?? ''));
      if (!identity) return json(401, { error: 'invalid_token', error_description: 'bad token' });
      return json(200, { ...identity, given_name: identity.name, picture: 'https://lh3.googleusercontent.com/a/x' });
    }
    json(404, { error: 'not_found' });
  });

  return fake;
}

async function sign(
  identity: FakeIdentity,
  key: CryptoKey,
  o: { issuer: string; audience: string; expiresIn: number; claims: Record<string, unknown> },
): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({ email: identity.email, email_verified: identity.email_verified, name: identity.name, ...o.claims })
    .setProtectedHeader({ alg: 'RS256', kid: KID, typ: 'JWT' })
    .setSubject(identity.sub)
    .setIssuer(o.issuer)
    .setAudience(o.audience)
    .setIssuedAt(now - 10)
    .setExpirationTime(now + o.expiresIn)
    .sign(key);
}

import { createHash, randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  basicCredentials,
  followAuthorisation,
  readBody,
  redirectWithCode,
  redirectWithError,
  startFakeServer,
} from './http.ts';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';

/**
 * Who the fake provider signs in next (what a person would do on the provider's login page): the
 * id_token's claims. `email_verified` may be the string "true"/"false" (Apple) or absent (Microsoft
 * Entra ID); any other claim (`hd` for Google Workspaces) goes into the id_token as given.
 */
export interface FakeOidcUser {
  sub: string;
  email?: string;
  email_verified?: boolean | 'true' | 'false';
  name?: string;
  [claim: string]: unknown;
}

interface PendingCode {
  clientId: string;
  redirectUri: string;
  codeChallenge?: string;
  user: FakeOidcUser;
}

/** How the fake checks the client at the token endpoint. */
export interface FakeOidcOptions {
  clientId: string;
  clientSecret: string;
  /** A fixed port on 127.0.0.1 (the browser tests' web server); any free port when unset. */
  port?: number;
  /** Who `/authorize` signs in until `POST /_test/next-user` or `state.nextUser` says otherwise. */
  user?: FakeOidcUser;
  /**
   * The issuer's path on the server, e.g. `/oauth2/default` (Okta), `/<tenant>/v2.0` (Entra ID) or
   * `/oauth` (LinkedIn); discovery is at `<issuer>/.well-known/openid-configuration`.
   */
  issuerPath?: string;
  /** The one client authentication the token endpoint takes (`any`: Basic or body, the default). */
  clientAuth?: 'client_secret_basic' | 'client_secret_post' | 'any';
  /**
   * Checks the presented client secret instead of comparing it with `clientSecret` (Apple: an ES256 JWT
   * checked with the team key's public half).
   */
  verifyClientSecret?: (secret: string, issuer: string) => Promise<boolean>;
  /** Whether a userinfo endpoint is published (Apple has none). Default true. */
  userinfo?: boolean;
  /** Only these response modes are accepted (Apple: `form_post` when email is asked for). */
  responseModes?: Array<'query' | 'form_post'>;
  /**
   * Google Workspace domains: a user whose address is at one of them (and who has no `hd` of their own)
   * gets the `hd` claim in the id_token, as Google gives it to Workspace accounts and not personal ones.
   */
  hostedDomains?: string[];
}

/**
 * A small, real OpenID Connect provider on 127.0.0.1 for tests: discovery, authorise (redirects straight
 * back with a code for `nextUser`), token (checks client secret, redirect URI and PKCE S256; returns an
 * RS256 id_token), userinfo and JWKS. Our server's real openid-client code path talks to it over HTTP.
 */
export async function startFakeOidcProvider(options: FakeOidcOptions) {
  const { publicKey, privateKey } = await generateKeyPair('RS256');
  const jwk = { ...(await exportJWK(publicKey)), kid: 'fake-1', alg: 'RS256', use: 'sig' };
  const codes = new Map<string, PendingCode>();
  const accessTokens = new Map<string, FakeOidcUser>();
  const state = {
    nextUser:
      options.user ?? ({ sub: 'user-1', email: 'person@example.test', email_verified: true } as FakeOidcUser),
    /** Leave the email out of the id_token (userinfo still has it unless the user has none). */
    emailOnlyInUserinfo: false,
    tokenRequests: [] as Array<Record<string, string>>,
    /** How each token request authenticated the client (`basic` or `post`). */
    tokenAuth: [] as Array<'basic' | 'post'>,
    /** The query of every authorisation request, as the browser sent it. */
    authorisations: [] as Array<Record<string, string>>,
    /** The next authorisation is refused with this OAuth error (e.g. `access_denied`) instead of a code. */
    nextError: undefined as string | undefined,
  };

  const server = await startFakeServer(handle, options.port);
  const prefix = options.issuerPath?.replace(/\/$/, '') ?? '';
  const issuer = `${server.url}${prefix}`;
  const withUserinfo = options.userinfo !== false;
  const authMethods =
    !options.clientAuth || options.clientAuth === 'any'
      ? ['client_secret_basic', 'client_secret_post']
      : [options.clientAuth];

  function withHostedDomain(user: FakeOidcUser): FakeOidcUser {
    const domain = user.email?.split('@')[1]?.toLowerCase();
    if (user.hd !== undefined || !domain || !options.hostedDomains?.includes(domain)) return user;
    return { ...user, hd: domain };
  }

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const full = new URL(req.url ?? '/', server.url);
    if (!full.pathname.startsWith(`${prefix}/`)) {
      return res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"not_found"}');
    }
    const url = new URL(full.pathname.slice(prefix.length) + full.search, server.url);
    const json = (status: number, body: unknown) =>
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));

    if (url.pathname === '/.well-known/openid-configuration') {
      return json(200, {
        issuer,
        authorization_endpoint: `${issuer}/authorize`,
        token_endpoint: `${issuer}/token`,
        ...(withUserinfo ? { userinfo_endpoint: `${issuer}/userinfo` } : {}),
        jwks_uri: `${issuer}/jwks`,
        response_types_supported: ['code'],
        response_modes_supported: options.responseModes ?? ['query'],
        subject_types_supported: ['public'],
        id_token_signing_alg_values_supported: ['RS256'],
        code_challenge_methods_supported: ['S256'],
        token_endpoint_auth_methods_supported: authMethods,
        scopes_supported: ['openid', 'email', 'profile'],
      });
    }
    if (url.pathname === '/jwks') return json(200, { keys: [jwk] });
    // Test control (not OIDC): choose who the next authorisation signs in, as a person would on the login page.
    if (url.pathname === '/_test/next-user' && req.method === 'POST') {
      state.nextUser = JSON.parse(await readBody(req)) as FakeOidcUser;
      return json(200, state.nextUser);
    }
    if (url.pathname === '/authorize') {
      const q = url.searchParams;
      state.authorisations.push(Object.fromEntries(q));
      if (q.get('client_id') !== options.clientId) return json(400, { error: 'invalid_client' });
      const mode = (q.get('response_mode') ?? 'query') as 'query' | 'form_post';
      if (!(options.responseModes ?? ['query']).includes(mode))
        return json(400, { error: 'invalid_request', error_description: `response_mode ${mode}` });
      const error = state.nextError;
      state.nextError = undefined;
      const code = randomBytes(16).toString('hex');
      if (!error) {
        codes.set(code, {
          clientId: q.get('client_id')!,
          redirectUri: q.get('redirect_uri')!,
          codeChallenge: q.get('code_challenge') ?? undefined,
          user: withHostedDomain({ ...state.nextUser }),
        });
      }
      if (mode === 'form_post') return postBack(res, q, error ? { error } : { code });
      return error ? redirectWithError(res, q, error) : redirectWithCode(res, q, code);
    }
    if (url.pathname === '/token' && req.method === 'POST') {
      const body = Object.fromEntries(new URLSearchParams(await readBody(req)));
      state.tokenRequests.push(body);
      const basic = basicCredentials(req);
      state.tokenAuth.push(basic ? 'basic' : 'post');
      if (!authMethods.includes(basic ? 'client_secret_basic' : 'client_secret_post'))
        return json(401, { error: 'invalid_client', error_description: 'client authentication method' });
      const clientId = basic?.[0] ?? body.client_id;
      const secret = basic?.[1] ?? body.client_secret ?? '';
      const secretOk = options.verifyClientSecret
        ? await options.verifyClientSecret(secret, issuer)
        : secret === options.clientSecret;
      if (clientId !== options.clientId || !secretOk) return json(401, { error: 'invalid_client' });
      const pending = body.code ? codes.get(body.code) : undefined;
      if (!pending || body.grant_type !== 'authorization_code') return json(400, { error: 'invalid_grant' });
      codes.delete(body.code!);
      if (body.redirect_uri !== pending.redirectUri)
        return json(400, { error: 'invalid_grant', error_description: 'redirect_uri' });
      if (pending.codeChallenge) {
        const computed = body.code_verifier
          ? createHash('sha256').update(body.code_verifier).digest('base64url')
          : undefined;
        if (computed !== pending.codeChallenge)
          return json(400, { error: 'invalid_grant', error_description: 'pkce' });
      }
      const accessToken = randomBytes(16).toString('hex');
      accessTokens.set(accessToken, pending.user);
      const { email, email_verified, ...rest } = pending.user;
      const claims = state.emailOnlyInUserinfo ? rest : pending.user;
      void email;
      void email_verified;
      const idToken = await new SignJWT({ ...claims })
        .setProtectedHeader({ alg: 'RS256', kid: 'fake-1' })
        .setIssuer(issuer)
        .setAudience(pending.clientId)
        .setSubject(pending.user.sub)
        .setIssuedAt()
        .setExpirationTime('5m')
        .sign(privateKey);
      return json(200, {
        access_token: accessToken,
        token_type: 'Bearer',
        expires_in: 300,
        id_token: idToken,
        scope: 'openid email profile',
      });
    }
    if (url.pathname === '/userinfo' && withUserinfo) {
      const token = req.headers.authorization?.replace(/^Bearer /, '');
      const user = token ? accessTokens.get(token) : undefined;
      if (!user) return json(401, { error: 'invalid_token' });
      return json(200, user);
    }
    return json(404, { error: 'not_found' });
  }

  return {
    issuer,
    /** The server's origin (the issuer without `issuerPath`). */
    origin: server.url,
    /** The settings that send the server's sign-in with `provider` (GOOGLE, GITLAB…) here. */
    envFor: (provider: string) => ({
      [`${provider}_CLIENT_ID`]: options.clientId,
      [`${provider}_CLIENT_SECRET`]: options.clientSecret,
      [`${provider}_ISSUER`]: issuer,
    }),
    state,
    /** Follows an authorisation URL like a browser would and returns the callback URL's query. */
    authorise: followAuthorisation,
    close: server.close,
  };
}

/**
 * `response_mode=form_post`: the provider's page posts the fields to the redirect URI from the browser
 * (an auto-submitting form, as Apple's page does).
 */
function postBack(res: ServerResponse, query: URLSearchParams, fields: Record<string, string>) {
  const all = { ...fields, ...(query.get('state') ? { state: query.get('state')! } : {}) };
  const esc = (v: string) => v.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
  const inputs = Object.entries(all)
    .map(([k, v]) => `<input type="hidden" name="${esc(k)}" value="${esc(v)}">`)
    .join('');
  return res
    .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
    .end(
      `<!doctype html><body onload="document.forms[0].submit()"><form method="post" action="${esc(query.get('redirect_uri')!)}">${inputs}</form></body>`,
    );
}

/** Reads the auto-submitting form of a `form_post` answer: where it posts and the fields it sends. */
export function readFormPost(html: string): { action: string; fields: Record<string, string> } {
  const unesc = (v: string) =>
    v
      .replace(/&lt;/g, '<')
      .replace(/&quot;/g, '"')
      .replace(/&amp;/g, '&');
  const action = /<form method="post" action="([^"]*)"/.exec(html)?.[1];
  if (!action) throw new Error(`not a form_post page: ${html.slice(0, 200)}`);
  const fields = Object.fromEntries(
    [...html.matchAll(/<input type="hidden" name="([^"]*)" value="([^"]*)">/g)].map((m) => [
      unesc(m[1]!),
      unesc(m[2]!),
    ]),
  );
  return { action: unesc(action), fields };
}

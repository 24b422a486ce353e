import { createHash, randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { followAuthorisation, readBody, redirectWithCode, startFakeServer } from './http.ts';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';

/** Who the fake provider signs in next (what a person would do on the provider's login page). */
export interface FakeOidcUser {
  sub: string;
  email?: string;
  email_verified?: boolean;
  name?: string;
}

interface PendingCode {
  clientId: string;
  redirectUri: string;
  codeChallenge?: string;
  user: FakeOidcUser;
}

/**
 * A small, real OpenID Connect provider on 127.0.0.1 for tests: discovery, authorise (redirects straight
 * back with a code for `nextUser`), token (checks client secret, redirect URI and PKCE S256; returns an
 * RS256 id_token), userinfo and JWKS. Our server's real openid-client code path talks to it over HTTP.
 */
export async function startFakeOidcProvider(options: {
  clientId: string;
  clientSecret: string;
  /** A fixed port on 127.0.0.1 (the browser tests' web server); any free port when unset. */
  port?: number;
  /** Who `/authorize` signs in until `POST /_test/next-user` or `state.nextUser` says otherwise. */
  user?: FakeOidcUser;
}) {
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
  };

  const server = await startFakeServer(handle, options.port);
  const issuer = server.url;

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? '/', issuer);
    const json = (status: number, body: unknown) =>
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));

    if (url.pathname === '/.well-known/openid-configuration') {
      return json(200, {
        issuer,
        authorization_endpoint: `${issuer}/authorize`,
        token_endpoint: `${issuer}/token`,
        userinfo_endpoint: `${issuer}/userinfo`,
        jwks_uri: `${issuer}/jwks`,
        response_types_supported: ['code'],
        subject_types_supported: ['public'],
        id_token_signing_alg_values_supported: ['RS256'],
        code_challenge_methods_supported: ['S256'],
        token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
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
      if (q.get('client_id') !== options.clientId) return json(400, { error: 'invalid_client' });
      const code = randomBytes(16).toString('hex');
      codes.set(code, {
        clientId: q.get('client_id')!,
        redirectUri: q.get('redirect_uri')!,
        codeChallenge: q.get('code_challenge') ?? undefined,
        user: { ...state.nextUser },
      });
      return redirectWithCode(res, q, code);
    }
    if (url.pathname === '/token' && req.method === 'POST') {
      const body = Object.fromEntries(new URLSearchParams(await readBody(req)));
      state.tokenRequests.push(body);
      const basic = req.headers.authorization?.startsWith('Basic ')
        ? Buffer.from(req.headers.authorization.slice(6), 'base64')
            .toString()
            .split(':')
            .map(decodeURIComponent)
        : undefined;
      const clientId = basic?.[0] ?? body.client_id;
      const secret = basic?.[1] ?? body.client_secret;
      if (clientId !== options.clientId || secret !== options.clientSecret)
        return json(401, { error: 'invalid_client' });
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
    if (url.pathname === '/userinfo') {
      const token = req.headers.authorization?.replace(/^Bearer /, '');
      const user = token ? accessTokens.get(token) : undefined;
      if (!user) return json(401, { error: 'invalid_token' });
      return json(200, user);
    }
    return json(404, { error: 'not_found' });
  }

  return {
    issuer,
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

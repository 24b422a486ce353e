import { createHash, randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  basicCredentials,
  followAuthorisation,
  readBody,
  redirectWithCode,
  redirectWithError,
  sendJson,
  startFakeServer,
} from './http.ts';

/**
 * Small fakes of the plain OAuth 2 sign-in providers (Discord, Bitbucket, Facebook) on 127.0.0.1, built
 * on one generic authorisation-code server: an authorise page that approves at once (or refuses with
 * `state.nextError`), a token endpoint with the provider's own client authentication, redirect-URI and
 * PKCE S256 checks and error shape, and the provider's profile/email API with its field names. One
 * server plays both the provider's web host and its API host.
 */

type ClientAuth = 'basic' | 'post' | 'basic-or-post';

interface FakeOAuth2Spec<User> {
  clientId: string;
  clientSecret: string;
  authorizePath: string;
  tokenPath: string;
  clientAuth: ClientAuth;
  /** Also accept the token request as a GET with the fields in the query (Facebook). */
  tokenByGet?: boolean;
  /** The provider's error body for a failed token request. */
  tokenError(error: string, description: string): { status: number; body: unknown };
  /** Extra fields of the token answer. */
  tokenExtras?: Record<string, unknown>;
  /** The API: answers a request made with a valid access token, or undefined for 404. */
  api(path: string, query: URLSearchParams, user: User): unknown;
  /** Where the API takes the access token besides `Authorization: Bearer` (Facebook: `access_token`). */
  tokenInQuery?: boolean;
  user: User;
}

async function startFakeOAuth2<User>(spec: FakeOAuth2Spec<User>) {
  const codes = new Map<string, { redirectUri: string; codeChallenge?: string; user: User }>();
  const tokens = new Map<string, User>();
  const state = {
    nextUser: spec.user,
    /** The next authorisation is refused with this OAuth error (e.g. `access_denied`). */
    nextError: undefined as string | undefined,
    authorisations: [] as Array<Record<string, string>>,
    tokenRequests: [] as Array<{ auth: 'basic' | 'post'; method: string; fields: Record<string, string> }>,
    apiRequests: [] as Array<{ path: string; query: string }>,
  };
  const server = await startFakeServer(handle);

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const u = new URL(req.url ?? '/', server.url);
    if (u.pathname === spec.authorizePath && req.method === 'GET') {
      const q = u.searchParams;
      state.authorisations.push(Object.fromEntries(q));
      if (q.get('client_id') !== spec.clientId || !q.get('redirect_uri'))
        return sendJson(res, 400, { error: 'invalid_client' });
      const error = state.nextError;
      state.nextError = undefined;
      if (error) return redirectWithError(res, q, error);
      const code = randomBytes(12).toString('hex');
      codes.set(code, {
        redirectUri: q.get('redirect_uri')!,
        codeChallenge: q.get('code_challenge') ?? undefined,
        user: structuredClone(state.nextUser),
      });
      return redirectWithCode(res, q, code);
    }
    if (
      u.pathname === spec.tokenPath &&
      (req.method === 'POST' || (spec.tokenByGet && req.method === 'GET'))
    ) {
      const fields =
        req.method === 'GET'
          ? Object.fromEntries(u.searchParams)
          : Object.fromEntries(new URLSearchParams(await readBody(req)));
      const basic = basicCredentials(req);
      state.tokenRequests.push({ auth: basic ? 'basic' : 'post', method: req.method!, fields });
      const fail = (error: string, description: string) => {
        const { status, body } = spec.tokenError(error, description);
        return sendJson(res, status, body);
      };
      if ((basic && spec.clientAuth === 'post') || (!basic && spec.clientAuth === 'basic'))
        return fail('invalid_client', 'client authentication method not accepted');
      const [id, secret] = basic ?? [fields.client_id, fields.client_secret];
      if (id !== spec.clientId || secret !== spec.clientSecret) return fail('invalid_client', 'bad client');
      const pending = fields.code ? codes.get(fields.code) : undefined;
      if (!pending) return fail('invalid_grant', 'invalid code');
      codes.delete(fields.code!);
      if (fields.redirect_uri !== pending.redirectUri) return fail('invalid_grant', 'redirect_uri mismatch');
      if (pending.codeChallenge) {
        const computed = fields.code_verifier
          ? createHash('sha256').update(fields.code_verifier).digest('base64url')
          : '';
        if (computed !== pending.codeChallenge) return fail('invalid_grant', 'code_verifier');
      }
      const token = randomBytes(16).toString('hex');
      tokens.set(token, pending.user);
      return sendJson(res, 200, {
        access_token: token,
        token_type: 'bearer',
        expires_in: 3600,
        ...spec.tokenExtras,
      });
    }
    const bearer = req.headers.authorization?.match(/^Bearer (.+)$/i)?.[1];
    const token = bearer ?? (spec.tokenInQuery ? u.searchParams.get('access_token') : null);
    const user = token ? tokens.get(token) : undefined;
    state.apiRequests.push({ path: u.pathname, query: u.search });
    if (!user) return sendJson(res, 401, { error: 'unauthorized' });
    const answer = spec.api(u.pathname, u.searchParams, user);
    if (answer === undefined) return sendJson(res, 404, { error: 'not found' });
    return sendJson(res, 200, answer);
  }

  return { url: server.url, state, authorise: followAuthorisation, close: server.close };
}

/** The Discord account the fake signs in next (`GET /users/@me`, with the `email` scope). */
export interface FakeDiscordUser {
  id: string;
  username: string;
  email?: string | null;
  verified?: boolean;
}

/**
 * Discord: `discord.com/oauth2/authorize`, `discord.com/api/oauth2/token` (client credentials as Basic or
 * in the body, PKCE), `discord.com/api/users/@me`. Point DISCORD_URL at `url`, DISCORD_API_URL at `apiUrl`.
 */
export async function startFakeDiscord(options: { clientId: string; clientSecret: string }) {
  const fake = await startFakeOAuth2<FakeDiscordUser>({
    ...options,
    authorizePath: '/oauth2/authorize',
    tokenPath: '/api/oauth2/token',
    clientAuth: 'basic-or-post',
    tokenError: (error, description) => ({ status: 400, body: { error, error_description: description } }),
    tokenExtras: { scope: 'identify email', refresh_token: randomBytes(8).toString('hex') },
    api: (path, _q, user) =>
      path === '/api/users/@me'
        ? {
            id: user.id,
            username: user.username,
            discriminator: '0',
            email: user.email ?? null,
            verified: !!user.verified,
          }
        : undefined,
    user: { id: '80351110224678912', username: 'nelly', email: 'nelly@example.test', verified: true },
  });
  return {
    ...fake,
    apiUrl: `${fake.url}/api`,
    env: {
      DISCORD_CLIENT_ID: options.clientId,
      DISCORD_CLIENT_SECRET: options.clientSecret,
      DISCORD_URL: fake.url,
      DISCORD_API_URL: `${fake.url}/api`,
    },
  };
}

/** The Bitbucket account the fake signs in next, with its addresses (`GET /2.0/user/emails`). */
export interface FakeBitbucketUser {
  uuid: string;
  account_id: string;
  display_name: string;
  emails: Array<{ email: string; is_primary: boolean; is_confirmed: boolean }>;
}

/**
 * Bitbucket Cloud: `bitbucket.org/site/oauth2/authorize`, `bitbucket.org/site/oauth2/access_token` (HTTP
 * Basic client credentials only), `api.bitbucket.org/2.0/user` and `/2.0/user/emails` (a paged `values`
 * list). Point BITBUCKET_URL and BITBUCKET_API_URL at `url`.
 */
export async function startFakeBitbucket(options: { clientId: string; clientSecret: string }) {
  const fake = await startFakeOAuth2<FakeBitbucketUser>({
    ...options,
    authorizePath: '/site/oauth2/authorize',
    tokenPath: '/site/oauth2/access_token',
    clientAuth: 'basic',
    tokenError: (error, description) => ({ status: 400, body: { error, error_description: description } }),
    tokenExtras: { scopes: 'account email', refresh_token: randomBytes(8).toString('hex') },
    api: (path, _q, user) => {
      if (path === '/2.0/user')
        return {
          type: 'user',
          uuid: user.uuid,
          account_id: user.account_id,
          display_name: user.display_name,
        };
      if (path === '/2.0/user/emails')
        return {
          pagelen: 10,
          page: 1,
          size: user.emails.length,
          values: user.emails.map((e) => ({ type: 'email', ...e })),
        };
      return undefined;
    },
    user: {
      uuid: '{c0ffee00-0000-4000-8000-000000000001}',
      account_id: '5b0000000000000000000001',
      display_name: 'Bit Person',
      emails: [{ email: 'bit@example.test', is_primary: true, is_confirmed: true }],
    },
  });
  return {
    ...fake,
    env: {
      BITBUCKET_CLIENT_ID: options.clientId,
      BITBUCKET_CLIENT_SECRET: options.clientSecret,
      BITBUCKET_URL: fake.url,
      BITBUCKET_API_URL: fake.url,
    },
  };
}

/** The Facebook account the fake signs in next (Graph `GET /me?fields=id,email`). */
export interface FakeFacebookUser {
  id: string;
  name: string;
  email?: string;
}

/**
 * Facebook Login: `www.facebook.com/<v>/dialog/oauth`, `graph.facebook.com/<v>/oauth/access_token` (the
 * client secret only in the request's fields, GET or POST; errors as `{error: {message, type, code}}`)
 * and `graph.facebook.com/<v>/me`, which answers only the fields asked for. Point FACEBOOK_URL and
 * FACEBOOK_GRAPH_URL at `url`.
 */
export async function startFakeFacebook(options: {
  clientId: string;
  clientSecret: string;
  version: string;
}) {
  const fake = await startFakeOAuth2<FakeFacebookUser>({
    ...options,
    authorizePath: `/${options.version}/dialog/oauth`,
    tokenPath: `/${options.version}/oauth/access_token`,
    clientAuth: 'post',
    tokenByGet: true,
    tokenInQuery: true,
    tokenError: (_error, description) => ({
      status: 400,
      body: { error: { message: description, type: 'OAuthException', code: 100, fbtrace_id: 'fake' } },
    }),
    api: (path, query, user) => {
      if (path !== `/${options.version}/me`) return undefined;
      const fields = (query.get('fields') ?? 'id,name').split(',');
      return Object.fromEntries(
        fields.filter((f) => f in user).map((f) => [f, user[f as keyof FakeFacebookUser]]),
      );
    },
    user: { id: '10158000000000001', name: 'Face Person', email: 'face@example.test' },
  });
  return {
    ...fake,
    env: {
      FACEBOOK_CLIENT_ID: options.clientId,
      FACEBOOK_CLIENT_SECRET: options.clientSecret,
      FACEBOOK_URL: fake.url,
      FACEBOOK_GRAPH_URL: fake.url,
    },
  };
}

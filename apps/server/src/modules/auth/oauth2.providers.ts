import { CodeChallengeMethod, OAuth2Client, OAuth2Tokens } from 'arctic';
import * as oidc from 'openid-client';
import type { OAuth2ProviderConfig, OAuth2ProviderId } from '../../config.ts';

/** What sign-in needs from a provider's account: its stable id and, when it shares one, an email. */
export interface ProviderProfile {
  /** The provider's stable user id. */
  userId: string;
  email?: string;
  emailVerified: boolean;
}

/** The authorisation-code flow of one provider for one redirect URI (arctic underneath). */
export interface CodeFlow {
  authorizationUrl(state: string, codeVerifier: string | null, scopes: string[]): URL;
  exchange(code: string, codeVerifier: string | null): Promise<OAuth2Tokens>;
}

/** GET a provider API with the user's access token; rejects on any non-2xx answer. */
export type GetJson = (url: string) => Promise<unknown>;

export interface OAuth2Preset {
  name: string;
  scopes: string[];
  /** Whether the provider accepts PKCE (S256) on the web flow. */
  pkce: boolean;
  flow(config: OAuth2ProviderConfig, redirectUri: string): CodeFlow;
  profile(get: GetJson, config: OAuth2ProviderConfig): Promise<ProviderProfile>;
}

/**
 * Providers whose token endpoint takes HTTP Basic client credentials: arctic's generic `OAuth2Client`
 * with the provider's endpoints. (arctic's per-provider classes hard-code the hosts and have no fetch
 * override; the generic client is the same protocol and lets GitHub Enterprise, or a local fake, be used.)
 */
function basicAuthFlow(endpoints: (c: OAuth2ProviderConfig) => { authorize: string; token: string }) {
  return (config: OAuth2ProviderConfig, redirectUri: string): CodeFlow => {
    const { authorize, token } = endpoints(config);
    const client = new OAuth2Client(config.clientId, config.clientSecret, redirectUri);
    return {
      authorizationUrl: (state, verifier, scopes) =>
        verifier
          ? client.createAuthorizationURLWithPKCE(
              authorize,
              state,
              CodeChallengeMethod.S256,
              verifier,
              scopes,
            )
          : client.createAuthorizationURL(authorize, state, scopes),
      exchange: (code, verifier) => client.validateAuthorizationCode(token, code, verifier),
    };
  };
}

const str = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() ? v.trim() : undefined);
const obj = (v: unknown): Record<string, unknown> =>
  typeof v === 'object' && v !== null ? (v as Record<string, unknown>) : {};
const idOf = (v: unknown): string => {
  if (typeof v === 'number' || (typeof v === 'string' && v)) return String(v);
  throw new Error('the provider returned no user id');
};

/** GitHub: `/user` for the id; `/user/emails` for the primary verified address (`user:email` scope). */
export function githubProfile(user: unknown, emails: unknown): ProviderProfile {
  const list = (Array.isArray(emails) ? emails : []).map(obj);
  const chosen =
    list.find((e) => e.primary === true && e.verified === true) ?? list.find((e) => e.verified === true);
  if (chosen) return { userId: idOf(obj(user).id), email: str(chosen.email), emailVerified: true };
  const fallback = str(list.find((e) => e.primary === true)?.email) ?? str(obj(user).email);
  return { userId: idOf(obj(user).id), email: fallback, emailVerified: false };
}

/** Discord: `/users/@me` with `email` and `verified` (the `email` scope). */
export function discordProfile(me: unknown): ProviderProfile {
  const m = obj(me);
  return { userId: idOf(m.id), email: str(m.email), emailVerified: m.verified === true && !!str(m.email) };
}

/** Bitbucket: `/2.0/user` for the account; `/2.0/user/emails` for the primary confirmed address. */
export function bitbucketProfile(user: unknown, emails: unknown): ProviderProfile {
  const u = obj(user);
  const list = (Array.isArray(obj(emails).values) ? (obj(emails).values as unknown[]) : []).map(obj);
  const chosen =
    list.find((e) => e.is_primary === true && e.is_confirmed === true) ??
    list.find((e) => e.is_confirmed === true);
  return {
    userId: idOf(u.uuid ?? u.account_id),
    email: str(chosen?.email) ?? str(list.find((e) => e.is_primary === true)?.email),
    emailVerified: !!chosen,
  };
}

/** Facebook: Graph `/me?fields=id,email`. Facebook does not say whether the address was confirmed. */
export function facebookProfile(me: unknown): ProviderProfile {
  const m = obj(me);
  return { userId: idOf(m.id), email: str(m.email), emailVerified: false };
}

/** X (Twitter): `/2/users/me`. X never shares an email over OAuth 2, so sign-in ends in NO_EMAIL_GIVEN_BY_PROVIDER. */
export function twitterProfile(me: unknown): ProviderProfile {
  return { userId: idOf(obj(obj(me).data).id), emailVerified: false };
}

export const OAUTH2_PRESETS: Record<OAuth2ProviderId, OAuth2Preset> = {
  github: {
    name: 'GitHub',
    scopes: ['read:user', 'user:email'],
    pkce: true,
    flow: basicAuthFlow((c) => ({
      authorize: `${c.webUrl}/login/oauth/authorize`,
      token: `${c.webUrl}/login/oauth/access_token`,
    })),
    profile: async (get, c) =>
      githubProfile(await get(`${c.apiUrl}/user`), await get(`${c.apiUrl}/user/emails`)),
  },
  discord: {
    name: 'Discord',
    scopes: ['identify', 'email'],
    pkce: true,
    flow: basicAuthFlow((c) => ({
      authorize: `${c.webUrl}/oauth2/authorize`,
      token: `${c.apiUrl}/oauth2/token`,
    })),
    profile: async (get, c) => discordProfile(await get(`${c.apiUrl}/users/@me`)),
  },
  bitbucket: {
    name: 'Bitbucket',
    scopes: ['account', 'email'],
    pkce: false,
    flow: basicAuthFlow((c) => ({
      authorize: `${c.webUrl}/site/oauth2/authorize`,
      token: `${c.webUrl}/site/oauth2/access_token`,
    })),
    profile: async (get, c) =>
      bitbucketProfile(await get(`${c.apiUrl}/2.0/user`), await get(`${c.apiUrl}/2.0/user/emails`)),
  },
  facebook: {
    name: 'Facebook',
    scopes: ['email', 'public_profile'],
    pkce: false,
    flow: facebookFlow,
    profile: async (get, c) =>
      facebookProfile(await get(`${c.apiUrl}/${FACEBOOK_GRAPH_VERSION}/me?fields=id,email`)),
  },
  twitter: {
    name: 'X',
    scopes: ['users.read', 'tweet.read'],
    pkce: true,
    flow: basicAuthFlow(() => ({
      authorize: 'https://x.com/i/oauth2/authorize',
      token: 'https://api.x.com/2/oauth2/token',
    })),
    profile: async (get) => twitterProfile(await get('https://api.x.com/2/users/me')),
  },
};

/** The Graph API version the dialog, token and profile calls are pinned to. */
export const FACEBOOK_GRAPH_VERSION = 'v19.0';

/**
 * Facebook: the dialog on www.facebook.com, the code exchanged at the Graph API with the client secret in
 * the request body (Facebook takes no HTTP Basic credentials). arctic's Facebook class hard-codes the
 * hosts and its generic client only sends Basic, so the exchange goes through openid-client's plain
 * OAuth 2 grant (`ClientSecretPost`, no id_token expected) with the configured hosts.
 */
function facebookFlow(c: OAuth2ProviderConfig, redirectUri: string): CodeFlow {
  const server: oidc.ServerMetadata = {
    issuer: c.webUrl!,
    authorization_endpoint: `${c.webUrl}/${FACEBOOK_GRAPH_VERSION}/dialog/oauth`,
    token_endpoint: `${c.apiUrl}/${FACEBOOK_GRAPH_VERSION}/oauth/access_token`,
  };
  const config = new oidc.Configuration(server, c.clientId, undefined, oidc.ClientSecretPost(c.clientSecret));
  if (new URL(server.token_endpoint!).protocol === 'http:') oidc.allowInsecureRequests(config);
  return {
    authorizationUrl: (_state, _verifier, scopes) =>
      oidc.buildAuthorizationUrl(config, {
        redirect_uri: redirectUri,
        response_type: 'code',
        scope: scopes.join(','),
      }),
    exchange: async (code) => {
      const current = new URL(redirectUri);
      current.searchParams.set('code', code);
      const tokens = await oidc.authorizationCodeGrant(
        config,
        current,
        { expectedState: oidc.skipStateCheck, idTokenExpected: false },
        { redirect_uri: redirectUri },
      );
      return new OAuth2Tokens({ ...tokens });
    },
  };
}

/** A `GetJson` that sends the access token as a bearer token. */
export function bearerGetJson(accessToken: string): GetJson {
  return async (url) => {
    const res = await fetch(url, {
      headers: {
        authorization: `Bearer ${accessToken}`,
        accept: 'application/json',
        // GitHub refuses API calls without a User-Agent.
        'user-agent': 'Lumina',
      },
      signal: AbortSignal.timeout(15_000),
    });
    if (!res.ok) throw new Error(`${new URL(url).host} answered ${res.status}`);
    return res.json();
  };
}

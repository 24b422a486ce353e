import { createHash, randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { exportJWK, generateKeyPair, type JWK } from 'jose';
// Types only here: the library is loaded on first use (`build`), so a server with no OAuth clients never
// loads it, nor prints its "Unsupported runtime" warning on Node 20 (docs/decisions.md).
import type {
  Adapter,
  AdapterPayload,
  ClientMetadata,
  Configuration,
  default as Provider,
  KoaContextWithOIDC,
} from 'oidc-provider';
import type { Clock } from '../../clock.ts';
import type { Config, OAuthClientConfig } from '../../config.ts';
import type { Database } from '../../db/client.ts';
import type { Logger } from '../../logger.ts';
import type { UserDirectory } from '../users/users.service.ts';
import { randomToken } from './auth.crypto.ts';
import * as repo from './oauth2-provider.repository.ts';
import { isSealedJwk, KeyEncryptionError, type KeyEncryption } from './key-encryption.ts';
import type { CookiePolicy } from './session.transport.ts';

/**
 * "Sign in with Lumina": an OpenID Connect provider built on `oidc-provider` (panva, OpenID certified),
 * mounted under `/auth` with its routes renamed to the SuperTokens FDI paths (`/oauth/auth`, `/oauth/token`,
 * ...). The login step is our own sign-in card: oidc-provider's interaction id is the FDI `loginChallenge`,
 * its interaction URL is the web auth page `/auth?loginChallenge=<uid>`, and `GET /auth/oauth/login`
 * finishes the interaction for the signed-in person (see oauth2-provider.routes.ts).
 */

/** The web page the browser is sent to for the login step (the SDK's auth page reads `loginChallenge`). */
/** How long a grant (and so an app's refresh token) lives at most. */
const GRANT_TTL_SECONDS = 14 * 24 * 3600;
const LOGIN_PAGE = '/auth';
/** The SDK's prebuilt logout page (`OAuth2Provider` recipe, websiteBasePath + /oauth/logout). */
const LOGOUT_PAGE = '/auth/oauth/logout';
/** Our page that confirms oidc-provider's end-session form once the person chose to log out. */
export const END_SESSION_CONTINUE_PATH = '/oauth/end_session/continue';

/** Paths (below `/auth`) that oidc-provider answers itself. */
export const PROVIDER_ROUTES = {
  authorization: '/oauth/auth',
  token: '/oauth/token',
  userinfo: '/oauth/userinfo',
  revocation: '/oauth/revoke',
  introspection: '/oauth/introspect',
  end_session: '/oauth/end_session',
  jwks: '/oauth/jwks.json',
} as const;

/** Where oidc-provider's end-session form posts. */
const END_SESSION_CONFIRM_PATH = `${PROVIDER_ROUTES.end_session}/confirm`;

/** Every path (below `/auth`) the provider handles, with the methods it accepts. */
export const PROVIDER_PATHS: Array<{ url: string; methods: Array<'GET' | 'POST' | 'OPTIONS'> }> = [
  { url: '/.well-known/openid-configuration', methods: ['GET', 'OPTIONS'] },
  { url: '/.well-known/oauth-authorization-server', methods: ['GET', 'OPTIONS'] },
  { url: PROVIDER_ROUTES.authorization, methods: ['GET'] },
  { url: `${PROVIDER_ROUTES.authorization}/:uid`, methods: ['GET'] },
  { url: PROVIDER_ROUTES.token, methods: ['POST', 'OPTIONS'] },
  { url: PROVIDER_ROUTES.userinfo, methods: ['GET', 'POST', 'OPTIONS'] },
  { url: PROVIDER_ROUTES.revocation, methods: ['POST', 'OPTIONS'] },
  { url: PROVIDER_ROUTES.introspection, methods: ['POST', 'OPTIONS'] },
  { url: PROVIDER_ROUTES.end_session, methods: ['GET'] },
  { url: END_SESSION_CONFIRM_PATH, methods: ['POST'] },
  { url: `${PROVIDER_ROUTES.end_session}/success`, methods: ['GET'] },
  { url: PROVIDER_ROUTES.jwks, methods: ['GET', 'OPTIONS'] },
];

/** Ids oidc-provider makes (nanoid, base64url) and our client ids; anything else is never stored. */
const SAFE_ID = /^[A-Za-z0-9._~-]{1,512}$/;
/** How long a logout challenge waits for the person to confirm on the logout page. */
const LOGOUT_CHALLENGE_TTL_SECONDS = 600;
const LOGOUT_MODEL = 'LogoutChallenge';
/** Expired rows are never read; they are deleted at most this often, by whichever request comes. */
const SWEEP_INTERVAL_MS = 3600_000;

/** What `GET /auth/oauth/login/info` answers about the client behind a login challenge. */
export interface LoginChallengeInfo {
  clientId: string;
  clientName: string;
  /** The optional links are left out when not configured (the card then shows no logo or no link). */
  logoUri?: string;
  clientUri?: string;
  tosUri?: string;
  policyUri?: string;
  metadata: Record<string, unknown>;
}

export type LoginOutcome =
  | { kind: 'unknown-challenge' }
  | { kind: 'other-browser' }
  | { kind: 'other-person' }
  | { kind: 'refused-client' }
  | { kind: 'continue'; frontendRedirectTo: string };

/** A type, not an interface: the adapter stores it as a plain JSON object. */
type LogoutChallenge = {
  xsrf: string;
  confirmed?: boolean;
  /** Where oidc-provider sends the browser once the session has ended (the client's, or our home). */
  after?: string;
  /** The end-session form was accepted: the session is over and its xsrf value is spent. */
  ended?: boolean;
};

/**
 * Where oidc-provider sends the browser after ending a session: the client's post-logout URI with its
 * `state`, or (without one) its success page, which is our home page.
 */
function afterLogout(
  session: { postLogoutRedirectUri?: string; state?: string } | undefined,
  webUrl: string,
): string {
  if (!session?.postLogoutRedirectUri) return `${webUrl}/`;
  const url = new URL(session.postLogoutRedirectUri);
  if (session.state != null) url.searchParams.set('state', session.state);
  return url.href;
}

/** The continue step of a confirmed sign-out: the form that ends the session, or, once it has, where to go. */
export type EndSessionStep =
  { kind: 'form'; html: string; csp: string } | { kind: 'ended'; location: string };

/** The provider's signing keys and cookie keys, kept in `auth_oauth_secrets`. */
interface ProviderSecrets {
  jwks: { keys: Record<string, unknown>[] };
  cookieKeys: string[];
}

const JWKS_SECRET = 'oauth-provider-jwks';
const COOKIE_KEYS_SECRET = 'oauth-provider-cookie-keys';
type SecretName = typeof JWKS_SECRET | typeof COOKIE_KEYS_SECRET;

/**
 * The stored items of a secret row: the JWKS row holds `{ keys: [...] }`, the cookie-keys row a list.
 * An item is plain (a private JWK, or a cookie key as a string) or sealed (`key-encryption.ts`).
 */
function storedItems(name: SecretName, value: unknown): unknown[] {
  const items = name === JWKS_SECRET ? (value as { keys?: unknown } | null)?.keys : value;
  return Array.isArray(items) ? items : [];
}

function storedValue(name: SecretName, items: unknown[]): unknown {
  return name === JWKS_SECRET ? { keys: items } : items;
}

/** What a sealed item is bound to: the row and the position in it (a sealed key moved elsewhere does not open). */
const sealContext = (name: SecretName, index: number) => `${name}/${index}`;

/** An item as stored: sealed when an encryption key is set (a cookie key is sealed as an `oct` JWK). */
function sealItem(name: SecretName, index: number, plain: unknown, encryption?: KeyEncryption): unknown {
  if (!encryption) return plain;
  const jwk = name === JWKS_SECRET ? (plain as JWK) : { kty: 'oct', k: String(plain) };
  return encryption.seal(jwk, sealContext(name, index));
}

/** An item as used: opened when sealed; KeyEncryptionError when it cannot be. */
function openItem(name: SecretName, index: number, stored: unknown, encryption?: KeyEncryption): unknown {
  if (!isSealedJwk(stored)) return stored;
  if (!encryption) {
    throw new KeyEncryptionError(
      `The Sign in with Lumina keys (${name}) in the database are encrypted, but AUTH_KEYS_ENCRYPTION_KEY is not set. Set the key they were encrypted with.`,
    );
  }
  const jwk = encryption.open(stored, sealContext(name, index));
  return name === JWKS_SECRET ? jwk : jwk.k;
}

/**
 * The provider's secrets: one RS256 signing key for id_tokens (a JWKS of its own, separate from the
 * session keys) and the keys that sign its cookies, created by the first process and read by the others.
 * With AUTH_KEYS_ENCRYPTION_KEY both are sealed at rest (AES-256-GCM, `key-encryption.ts`), like the
 * session signing keys; `OAuthProvider.secureStoredSecrets` seals rows stored before the key was set.
 */
async function providerSecrets(
  db: Database,
  now: Date,
  encryption?: KeyEncryption,
): Promise<ProviderSecrets> {
  const jwks = await repo.secretOrCreate(
    db,
    JWKS_SECRET,
    async () => {
      const { privateKey } = await generateKeyPair('RS256', { extractable: true });
      const jwk = await exportJWK(privateKey);
      const plain = { ...jwk, kid: randomToken(12), alg: 'RS256', use: 'sig' };
      return storedValue(JWKS_SECRET, [sealItem(JWKS_SECRET, 0, plain, encryption)]);
    },
    now,
  );
  const cookieKeys = await repo.secretOrCreate(
    db,
    COOKIE_KEYS_SECRET,
    () =>
      storedValue(COOKIE_KEYS_SECRET, [
        sealItem(COOKIE_KEYS_SECRET, 0, randomBytes(32).toString('base64url'), encryption),
      ]),
    now,
  );
  return {
    jwks: {
      keys: storedItems(JWKS_SECRET, jwks).map(
        (item, i) => openItem(JWKS_SECRET, i, item, encryption) as Record<string, unknown>,
      ),
    },
    cookieKeys: storedItems(COOKIE_KEYS_SECRET, cookieKeys).map((item, i) =>
      String(openItem(COOKIE_KEYS_SECRET, i, item, encryption)),
    ),
  };
}

/** oidc-provider's storage on our database (PGlite or PostgreSQL): one row per model and id. */
class DatabaseAdapter implements Adapter {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    private readonly model: string,
  ) {}

  private now = () => new Date(this.clock.now());

  async upsert(id: string, payload: AdapterPayload, expiresIn?: number): Promise<void> {
    await repo.upsertPayload(this.db, {
      model: this.model,
      id,
      payload: payload as Record<string, unknown>,
      grantId: payload.grantId ?? null,
      userCode: payload.userCode ?? null,
      uid: payload.uid ?? null,
      expiresAt: expiresIn ? new Date(this.clock.now() + expiresIn * 1000) : null,
    });
  }

  private withConsumed(row: Awaited<ReturnType<typeof repo.findPayload>>): AdapterPayload | undefined {
    if (!row) return undefined;
    return {
      ...(row.payload as AdapterPayload),
      ...(row.consumedAt ? { consumed: Math.floor(row.consumedAt.getTime() / 1000) } : {}),
    };
  }

  async find(id: string) {
    if (!SAFE_ID.test(id)) return undefined;
    return this.withConsumed(await repo.findPayload(this.db, this.model, id, this.now()));
  }

  async findByUid(uid: string) {
    if (!SAFE_ID.test(uid)) return undefined;
    return this.withConsumed(await repo.findPayloadBy(this.db, this.model, 'uid', uid, this.now()));
  }

  async findByUserCode(userCode: string) {
    if (!SAFE_ID.test(userCode)) return undefined;
    return this.withConsumed(await repo.findPayloadBy(this.db, this.model, 'userCode', userCode, this.now()));
  }

  async consume(id: string) {
    await repo.consumePayload(this.db, this.model, id, this.now());
  }

  async destroy(id: string) {
    await repo.deletePayload(this.db, this.model, id);
  }

  async revokeByGrantId(grantId: string) {
    await repo.deletePayloadsOfGrant(this.db, this.model, grantId);
  }
}

/** The claims of `sub` for userinfo: our user id, their address and whether it is verified. */
async function accountClaims(users: UserDirectory, sub: string) {
  const user = await users.get(sub);
  if (!user) return undefined;
  const withEmail = user.loginMethods.filter((m) => m.email);
  const method = withEmail.find((m) => m.verified) ?? withEmail[0];
  return {
    sub,
    ...(method?.email ? { email: method.email, email_verified: method.verified } : {}),
  };
}

function clientMetadata(client: OAuthClientConfig): ClientMetadata {
  return {
    client_id: client.clientId,
    ...(client.clientSecret
      ? { client_secret: client.clientSecret, token_endpoint_auth_method: 'client_secret_basic' }
      : { token_endpoint_auth_method: 'none' }),
    client_name: client.name,
    ...(client.logoUri ? { logo_uri: client.logoUri } : {}),
    ...(client.clientUri ? { client_uri: client.clientUri } : {}),
    ...(client.tosUri ? { tos_uri: client.tosUri } : {}),
    ...(client.policyUri ? { policy_uri: client.policyUri } : {}),
    redirect_uris: client.redirectUris,
    post_logout_redirect_uris: client.postLogoutRedirectUris,
    grant_types: client.grantTypes,
    response_types: ['code'],
    scope: client.scopes.join(' '),
  };
}

/** The inline script of the end-session page, allowed by its hash only. */
const AUTO_SUBMIT = 'document.forms[0].submit();';
const AUTO_SUBMIT_SHA = createHash('sha256').update(AUTO_SUBMIT).digest('base64');

const htmlEscape = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export class OAuthProvider {
  readonly issuer: string;
  private readonly webUrl: string;
  private readonly clients: Map<string, OAuthClientConfig>;
  private provider?: Promise<Provider>;
  /** When this process last deleted expired rows (at most hourly, on a provider request). */
  private lastSweep = 0;
  /** Each built provider's request handler, made once: it follows the provider's own memo (a failed build or new keys). */
  private readonly handlers = new WeakMap<
    Provider,
    (req: IncomingMessage, res: ServerResponse) => Promise<void>
  >();

  constructor(
    private readonly db: Database,
    private readonly config: Config,
    private readonly users: UserDirectory,
    private readonly clock: Clock,
    private readonly cookies: CookiePolicy,
    private readonly log: Logger,
    basePath: string,
    /** Seals the provider's keys at rest (AUTH_KEYS_ENCRYPTION_KEY); without it they are stored plain. */
    private readonly encryption?: KeyEncryption,
  ) {
    this.issuer = `${config.publicUrl}${basePath}`;
    this.webUrl = config.auth.webUrl;
    this.clients = new Map(config.auth.oauthClients.map((c) => [c.clientId, c]));
  }

  /**
   * Start-up, like `SigningKeys.secureStoredKeys`: with an encryption key, stored provider keys that are
   * plain or sealed with an earlier key are sealed with the current one; keys it cannot open stop start-up
   * (KeyEncryptionError naming the setting, never a key). Without one, sealed keys stop start-up.
   */
  async secureStoredSecrets(): Promise<void> {
    const encryption = this.encryption;
    for (const name of [JWKS_SECRET, COOKIE_KEYS_SECRET] as const) {
      const row = await repo.findSecret(this.db, name);
      if (!row) continue;
      const items = storedItems(name, row.value);
      if (!encryption) {
        items.forEach((item, i) => openItem(name, i, item, undefined));
        continue;
      }
      if (!items.some((item) => encryption.needsSealing(item))) continue;
      let sealed: unknown[];
      try {
        sealed = items.map((item, i) => sealItem(name, i, openItem(name, i, item, encryption), encryption));
      } catch (err) {
        throw new KeyEncryptionError(
          `AUTH_KEYS_ENCRYPTION_KEY cannot decrypt the Sign in with Lumina keys (${name}) in the database: ${(err as Error).message}. Set the key they were encrypted with, or list it in AUTH_KEYS_ENCRYPTION_KEY_PREVIOUS.`,
        );
      }
      // Only if the row is unchanged: another process starting at the same time may have done it already.
      if (await repo.replaceSecret(this.db, name, row.value, storedValue(name, sealed))) {
        this.log.info({ secret: name }, 'Sign in with Lumina keys encrypted with AUTH_KEYS_ENCRYPTION_KEY');
      }
    }
    this.provider = undefined;
  }

  /** The oidc-provider instance, built on first use (its keys are read from, or created in, the database). */
  instance(): Promise<Provider> {
    this.provider ??= this.build().catch((err: unknown) => {
      this.provider = undefined;
      throw err;
    });
    return this.provider;
  }

  private async build(): Promise<Provider> {
    const { default: Provider, interactionPolicy } = await import('oidc-provider');
    const secrets = await providerSecrets(this.db, new Date(this.clock.now()), this.encryption);
    const cookieOptions = {
      httpOnly: true,
      sameSite: this.cookies.sameSite,
      secure: this.cookies.secure,
    } as const;

    // Every authorisation goes through our sign-in card, even with a provider session: signing out of
    // Lumina must stop silent sign-ins to its apps, and the card checks MFA and email verification.
    const policy = interactionPolicy.base();
    policy
      .get('login')!
      .checks.add(
        new interactionPolicy.Check(
          'lumina_session',
          'the Lumina session is confirmed on every authorisation',
          (ctx: KoaContextWithOIDC) =>
            ctx.oidc.result?.login
              ? interactionPolicy.Check.NO_NEED_TO_PROMPT
              : interactionPolicy.Check.REQUEST_PROMPT,
        ),
      );

    const configuration: Configuration = {
      adapter: (model: string) => new DatabaseAdapter(this.db, this.clock, model),
      clients: [...this.clients.values()].map(clientMetadata),
      jwks: secrets.jwks as Configuration['jwks'],
      cookies: { keys: secrets.cookieKeys, long: cookieOptions, short: cookieOptions },
      claims: { openid: ['sub'], email: ['email', 'email_verified'] },
      scopes: ['openid', 'email', 'offline_access'],
      findAccount: async (_ctx, sub) => {
        const claims = await accountClaims(this.users, sub);
        return claims ? { accountId: sub, claims: async () => claims } : undefined;
      },
      features: {
        devInteractions: { enabled: false },
        // A client may revoke and introspect only the tokens issued to it.
        revocation: {
          enabled: true,
          allowedPolicy: async (_ctx, client, token) => token.clientId === client.clientId,
        },
        introspection: {
          enabled: true,
          allowedPolicy: async (_ctx, client, token) => token.clientId === client.clientId,
        },
        userinfo: { enabled: true },
        pushedAuthorizationRequests: { enabled: false },
        rpInitiatedLogout: {
          enabled: true,
          logoutSource: (ctx) => this.logoutSource(ctx),
          postLogoutSuccessSource: (ctx) => {
            ctx.status = 303;
            ctx.redirect(`${this.webUrl}/`);
          },
        },
      },
      pkce: { required: () => true },
      routes: PROVIDER_ROUTES,
      interactions: {
        policy,
        url: (_ctx, interaction) => `${this.webUrl}${LOGIN_PAGE}?loginChallenge=${interaction.uid}`,
      },
      // First-party clients (the only ones accepted) always get a refresh token when their grant types
      // allow it, without `offline_access` and `prompt=consent`; the token ends with the provider session.
      issueRefreshToken: async (_ctx, client) =>
        client.grantTypeAllowed('refresh_token') && this.clients.get(client.clientId)?.firstParty === true,
      renderError: (ctx, out) => {
        ctx.type = 'json';
        ctx.body = {
          error: out.error,
          error_description: out.error_description,
          message: out.error_description ?? out.error,
        };
      },
      ttl: {
        AccessToken: 3600,
        AuthorizationCode: 60,
        IdToken: 3600,
        Interaction: 3600,
        RefreshToken: 14 * 24 * 3600,
        Session: 14 * 24 * 3600,
        Grant: GRANT_TTL_SECONDS,
      },
    };
    const provider = new Provider(this.issuer, configuration);
    // URLs the provider builds come from PUBLIC_URL (set on each request below), not from the caller.
    provider.proxy = true;
    provider.on('server_error', (_ctx, err) => this.log.error({ err }, 'the OpenID provider failed'));
    // A Koa middleware, so the challenge is marked before the redirect reaches the browser.
    provider.use(async (ctx, next) => {
      await next();
      await this.noteEndSession(ctx).catch((err: unknown) =>
        this.log.warn({ err }, 'could not record that a sign-out ended its session'),
      );
    });
    return provider;
  }

  /** Answers one request to a provider path (`url` is below `/auth`) on the raw Node objects. */
  async handle(req: IncomingMessage, res: ServerResponse, prefix: string): Promise<void> {
    const provider = await this.instance();
    let callback = this.handlers.get(provider);
    if (!callback) {
      callback = provider.callback();
      this.handlers.set(provider, callback);
    }
    if (this.clock.now() - this.lastSweep > SWEEP_INTERVAL_MS) {
      this.lastSweep = this.clock.now();
      this.sweep().catch((err: unknown) => this.log.warn({ err }, 'could not delete expired OpenID rows'));
    }
    const publicUrl = new URL(this.config.publicUrl);
    const original = req.url ?? '/';
    Object.assign(req, { originalUrl: original, url: original.slice(prefix.length) || '/' });
    req.headers['x-forwarded-host'] = publicUrl.host;
    req.headers['x-forwarded-proto'] = publicUrl.protocol.replace(':', '');
    // Helmet's page policy would block the provider's auto-submitting forms (form_post, logout); the
    // provider adds its scripts' hashes to this one.
    res.setHeader(
      'content-security-policy',
      "default-src 'none'; script-src 'self'; style-src 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'",
    );
    await callback(req, res);
  }

  /** What the sign-in card shows for a login challenge (undefined when there is no such challenge). */
  async loginInfo(loginChallenge: string): Promise<LoginChallengeInfo | undefined> {
    const provider = await this.instance();
    const interaction = SAFE_ID.test(loginChallenge)
      ? await provider.Interaction.find(loginChallenge)
      : undefined;
    const clientId = interaction?.params.client_id;
    const client = typeof clientId === 'string' ? this.clients.get(clientId) : undefined;
    if (!client) return undefined;
    return {
      clientId: client.clientId,
      clientName: client.name,
      logoUri: client.logoUri,
      clientUri: client.clientUri,
      tosUri: client.tosUri,
      policyUri: client.policyUri,
      metadata: {},
    };
  }

  /**
   * Finishes the login step of `loginChallenge` for `userId`. Only the browser that started the
   * authorisation may (oidc-provider's interaction cookie must name this challenge), and a challenge
   * one person finished cannot be finished again for someone else. `claimsPending` (MFA or email
   * verification not done) sends the browser back to the sign-in card, which finishes them first.
   */
  async continueLogin(
    req: IncomingMessage,
    res: ServerResponse,
    input: {
      loginChallenge: string;
      userId: string;
      sessionHandle: string;
      claimsPending: boolean;
      authTime: number;
    },
  ): Promise<LoginOutcome> {
    const provider = await this.instance();
    if (!SAFE_ID.test(input.loginChallenge)) return { kind: 'unknown-challenge' };
    const interaction = await provider.Interaction.find(input.loginChallenge);
    if (!interaction) return { kind: 'unknown-challenge' };
    let cookieUid: string | undefined;
    try {
      cookieUid = (await provider.interactionDetails(req, res)).uid;
    } catch {
      cookieUid = undefined;
    }
    if (cookieUid !== interaction.uid) return { kind: 'other-browser' };
    const clientId = String(interaction.params.client_id ?? '');
    const client = this.clients.get(clientId);
    if (!client?.firstParty) return { kind: 'refused-client' };
    if (interaction.result?.login && interaction.result.login.accountId !== input.userId) {
      return { kind: 'other-person' };
    }
    if (input.claimsPending) {
      return {
        kind: 'continue',
        frontendRedirectTo: `${this.webUrl}${LOGIN_PAGE}?loginChallenge=${encodeURIComponent(interaction.uid)}`,
      };
    }

    // Consent is not asked of first-party clients: the grant covers what the client requested.
    const existing = interaction.grantId ? await provider.Grant.find(interaction.grantId) : undefined;
    const grant =
      existing && existing.accountId === input.userId
        ? existing
        : new provider.Grant({ accountId: input.userId, clientId });
    const scope = typeof interaction.params.scope === 'string' ? interaction.params.scope : 'openid';
    grant.addOIDCScope(scope);
    const claims = interaction.params.claims;
    if (typeof claims === 'string') {
      try {
        const parsed = JSON.parse(claims) as Record<string, Record<string, unknown> | null | undefined>;
        grant.addOIDCClaims([...Object.keys(parsed.userinfo ?? {}), ...Object.keys(parsed.id_token ?? {})]);
      } catch {
        // oidc-provider already refused a malformed claims parameter before the interaction began.
      }
    }
    const grantId = await grant.save();
    await repo.linkGrantToSession(
      this.db,
      grantId,
      input.sessionHandle,
      new Date(this.clock.now() + GRANT_TTL_SECONDS * 1000),
    );
    interaction.result = {
      login: { accountId: input.userId, ts: input.authTime, remember: true },
      consent: { grantId },
    };
    await interaction.save(Math.max(interaction.exp - Math.floor(this.clock.now() / 1000), 1));
    return { kind: 'continue', frontendRedirectTo: interaction.returnTo };
  }

  /** Ends the apps' grants (and their tokens) that the sign-in of these Lumina sessions finished. */
  async revokeGrantsOfSessions(handles: string[]): Promise<void> {
    await repo.deleteGrantsOfSessions(this.db, handles);
  }

  /** oidc-provider's logout page: instead, the SDK's logout page with a challenge naming this request. */
  private async logoutSource(ctx: KoaContextWithOIDC): Promise<void> {
    const state = ctx.oidc.session?.state as
      { secret?: string; postLogoutRedirectUri?: string; state?: string } | undefined;
    const challenge = randomToken(24);
    await this.logoutChallenges().upsert(
      challenge,
      { state: { xsrf: state?.secret ?? '', after: afterLogout(state, this.webUrl) } },
      LOGOUT_CHALLENGE_TTL_SECONDS,
    );
    ctx.status = 303;
    ctx.redirect(`${this.webUrl}${LOGOUT_PAGE}?logoutChallenge=${challenge}`);
  }

  private logoutChallenges(): DatabaseAdapter {
    return new DatabaseAdapter(this.db, this.clock, LOGOUT_MODEL);
  }

  private async logoutChallenge(logoutChallenge: string): Promise<LogoutChallenge | undefined> {
    const found = await this.logoutChallenges().find(logoutChallenge);
    return found?.state as LogoutChallenge | undefined;
  }

  private async updateLogoutChallenge(logoutChallenge: string, state: LogoutChallenge): Promise<void> {
    await this.logoutChallenges().upsert(logoutChallenge, { state }, LOGOUT_CHALLENGE_TTL_SECONDS);
  }

  /**
   * The person confirmed on the logout page: the challenge is marked confirmed and the browser goes to
   * the page that submits oidc-provider's end-session form (which ends its session and grants, then
   * redirects to the client's post-logout URI). Undefined for an unknown challenge.
   */
  async confirmLogout(logoutChallenge: string): Promise<string | undefined> {
    const state = await this.logoutChallenge(logoutChallenge);
    if (!state?.xsrf) return undefined;
    await this.updateLogoutChallenge(logoutChallenge, { ...state, confirmed: true });
    return `${this.issuer}${END_SESSION_CONTINUE_PATH}?logoutChallenge=${encodeURIComponent(logoutChallenge)}`;
  }

  /**
   * The auto-submitting end-session form for a confirmed challenge, or undefined. The SDK's logout page
   * navigates here twice (its own session ends mid-way, which makes it confirm again), so the page is
   * served while the challenge lives; once a form was accepted its xsrf value is spent, and a late
   * second visit goes straight to where the first one went instead of to oidc-provider's error page.
   */
  async endSessionStep(logoutChallenge: string): Promise<EndSessionStep | undefined> {
    const state = await this.logoutChallenge(logoutChallenge);
    if (!state?.confirmed) return undefined;
    if (state.ended) return { kind: 'ended', location: state.after ?? `${this.webUrl}/` };
    const action = `${this.issuer}${END_SESSION_CONFIRM_PATH}?logoutChallenge=${encodeURIComponent(logoutChallenge)}`;
    const html = `<!DOCTYPE html><html><head><meta charset="utf-8"><title>Signing out</title></head><body>
<form method="post" action="${htmlEscape(action)}"><input type="hidden" name="xsrf" value="${htmlEscape(state.xsrf)}"/><input type="hidden" name="logout" value="yes"/><noscript><button type="submit">Continue</button></noscript></form>
<script>${AUTO_SUBMIT}</script></body></html>`;
    return {
      kind: 'form',
      html,
      csp: `default-src 'none'; script-src 'sha256-${AUTO_SUBMIT_SHA}'; frame-ancestors 'none'; base-uri 'none'`,
    };
  }

  /**
   * After oidc-provider answered an end-session form: a redirect means it ended the session, so the
   * challenge named in the form's action (our own query parameter, which the provider ignores) is over.
   */
  private async noteEndSession(ctx: {
    method: string;
    path: string;
    status: number;
    query: Record<string, string | string[] | undefined>;
  }): Promise<void> {
    const logoutChallenge = ctx.query.logoutChallenge;
    if (ctx.method !== 'POST' || ctx.path !== END_SESSION_CONFIRM_PATH) return;
    if (typeof logoutChallenge !== 'string' || (ctx.status !== 303 && ctx.status !== 302)) return;
    const state = await this.logoutChallenge(logoutChallenge);
    if (state?.confirmed) await this.updateLogoutChallenge(logoutChallenge, { ...state, ended: true });
  }

  /** Frees the space of expired rows (reads already ignore them). */
  async sweep(): Promise<void> {
    await repo.deleteExpiredPayloads(this.db, new Date(this.clock.now()));
  }
}

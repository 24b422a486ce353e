import * as oidc from 'openid-client';
import { generateCodeVerifier } from 'arctic';
import { createRemoteJWKSet, importPKCS8, jwtVerify, SignJWT, type JWTVerifyGetKey } from 'jose';
import type { OAuth2ProviderConfig, OidcProviderConfig } from '../../config.ts';
import type { Logger } from '../../logger.ts';
import { bearerGetJson, OAUTH2_PRESETS, type ProviderProfile } from './oauth2.providers.ts';

export type { ProviderProfile } from './oauth2.providers.ts';

/**
 * `refused`: the provider signed the person in, but our rules for that provider turn them away (a Google
 * Workspaces account outside the allowed domains); `reason` is then a sentence for the sign-in card.
 */
export type ExchangeResult =
  { ok: true; profile: ProviderProfile } | { ok: false; reason: string; refused?: boolean };

/** A sign-in the provider allowed but this provider's settings refuse; the message is shown to the person. */
export class ProviderRefusal extends Error {}

interface Discovered {
  config: oidc.Configuration;
  jwks: JWTVerifyGetKey;
}

type Provider =
  | { kind: 'oidc'; id: string; name: string; config: OidcProviderConfig }
  | { kind: 'oauth2'; id: string; name: string; config: OAuth2ProviderConfig };

/**
 * Third-party sign-in. OpenID Connect providers (Google, Apple, GitLab, LinkedIn, Okta, Active Directory
 * and any OIDC_PROVIDERS_JSON issuer) go through openid-client: discovery on first use, PKCE S256, the
 * code exchange, and an id_token verified against the provider's JWKS with jose. Plain OAuth 2
 * providers (GitHub, Discord, Bitbucket, Facebook, X) go through arctic, and their profile and email
 * come from each provider's own API (`oauth2.providers.ts`). The web SDK keeps the PKCE verifier and
 * adds its own `state`, so authorisation URLs carry none.
 */
export class ThirdPartyProviders {
  private readonly discovered = new Map<string, Promise<Discovered>>();

  private readonly providers: Provider[];

  constructor(
    oidcProviders: OidcProviderConfig[],
    oauth2Providers: OAuth2ProviderConfig[],
    private readonly log: Logger,
  ) {
    this.providers = [
      ...oidcProviders.map((config): Provider => ({
        kind: 'oidc',
        id: config.id,
        name: config.name,
        config,
      })),
      ...oauth2Providers.map((config): Provider => ({
        kind: 'oauth2',
        id: config.id,
        name: OAUTH2_PRESETS[config.id].name,
        config,
      })),
    ];
  }

  /** Every configured provider id, in the order the sign-in card lists them. */
  get ids(): string[] {
    return this.providers.map((p) => p.id);
  }

  get(id: string): { id: string; name: string } | undefined {
    const provider = this.providers.find((p) => p.id === id);
    return provider && { id: provider.id, name: provider.name };
  }

  async authorisationUrl(
    id: string,
    redirectUri: string,
  ): Promise<{ url: string; pkceCodeVerifier?: string }> {
    const provider = this.providers.find((p) => p.id === id)!;
    if (provider.kind === 'oauth2') {
      const preset = OAUTH2_PRESETS[provider.config.id];
      const verifier = preset.pkce ? generateCodeVerifier() : null;
      const url = preset.flow(provider.config, redirectUri).authorizationUrl('-', verifier, preset.scopes);
      url.searchParams.delete('state');
      return { url: url.toString(), ...(verifier ? { pkceCodeVerifier: verifier } : {}) };
    }
    const { config } = await this.discover(provider.config);
    const pkce = provider.config.pkce !== false;
    const pkceCodeVerifier = pkce ? oidc.randomPKCECodeVerifier() : undefined;
    const url = oidc.buildAuthorizationUrl(config, {
      redirect_uri: redirectUri,
      response_type: 'code',
      scope: provider.config.scopes.join(' '),
      ...(pkceCodeVerifier
        ? {
            code_challenge: await oidc.calculatePKCECodeChallenge(pkceCodeVerifier),
            code_challenge_method: 'S256',
          }
        : {}),
      ...provider.config.authParams,
    });
    return { url: url.toString(), ...(pkceCodeVerifier ? { pkceCodeVerifier } : {}) };
  }

  async exchange(
    id: string,
    input: { redirectUri: string; query: Record<string, string>; pkceCodeVerifier?: string },
  ): Promise<ExchangeResult> {
    const provider = this.providers.find((p) => p.id === id)!;
    try {
      if (input.query.error) throw new Error(`the provider answered ${input.query.error}`);
      const profile =
        provider.kind === 'oauth2'
          ? await this.exchangeOAuth2(provider.config, input)
          : await this.exchangeOidc(provider.config, input);
      return { ok: true, profile: { ...profile, email: profile.email?.trim().toLowerCase() } };
    } catch (err) {
      if (err instanceof ProviderRefusal) {
        this.log.info({ provider: id, reason: err.message }, 'third-party sign-in refused');
        return { ok: false, reason: err.message, refused: true };
      }
      this.log.warn({ err, provider: id }, 'third-party sign-in failed');
      return { ok: false, reason: err instanceof Error ? err.message : String(err) };
    }
  }

  private async exchangeOAuth2(
    config: OAuth2ProviderConfig,
    input: { redirectUri: string; query: Record<string, string>; pkceCodeVerifier?: string },
  ): Promise<ProviderProfile> {
    const preset = OAUTH2_PRESETS[config.id];
    const tokens = await preset
      .flow(config, input.redirectUri)
      .exchange(input.query.code!, preset.pkce ? (input.pkceCodeVerifier ?? null) : null);
    return preset.profile(bearerGetJson(tokens.accessToken()), config);
  }

  private async exchangeOidc(
    provider: OidcProviderConfig,
    input: { redirectUri: string; query: Record<string, string>; pkceCodeVerifier?: string },
  ): Promise<ProviderProfile> {
    const discovered = await this.discover(provider);
    const { jwks } = discovered;
    // Apple's client secret is a short-lived JWT signed with the team's key, made for each exchange.
    const config = provider.appleKey
      ? new oidc.Configuration(
          discovered.config.serverMetadata(),
          provider.clientId,
          undefined,
          oidc.ClientSecretPost(
            await appleClientSecret(
              provider.clientId,
              provider.appleKey,
              discovered.config.serverMetadata().issuer,
            ),
          ),
        )
      : discovered.config;
    // A Configuration made here does not inherit discovery's http permission (local fakes in tests).
    if (provider.appleKey && new URL(provider.issuer).protocol === 'http:')
      oidc.allowInsecureRequests(config);
    const currentUrl = new URL(input.redirectUri);
    for (const [k, v] of Object.entries(input.query)) currentUrl.searchParams.set(k, v);
    const tokens = await oidc.authorizationCodeGrant(
      config,
      currentUrl,
      {
        pkceCodeVerifier: provider.pkce === false ? undefined : input.pkceCodeVerifier,
        // The web SDK checks `state` itself before calling us (docs/reference/supertokens-fdi/CONTRACT.md §5.2).
        expectedState: input.query.state ?? oidc.skipStateCheck,
        idTokenExpected: true,
      },
      { redirect_uri: input.redirectUri },
    );
    const { payload } = await jwtVerify(tokens.id_token!, jwks, {
      issuer: config.serverMetadata().issuer,
      audience: provider.clientId,
    });
    if (provider.hostedDomains) checkHostedDomain(provider.hostedDomains, payload.hd);
    let email = typeof payload.email === 'string' ? payload.email : undefined;
    let verified = payload.email_verified;
    if (!email && config.serverMetadata().userinfo_endpoint) {
      const info = await oidc.fetchUserInfo(config, tokens.access_token, payload.sub!);
      email = typeof info.email === 'string' ? info.email : undefined;
      verified = info.email_verified;
    }
    return { userId: payload.sub!, email, emailVerified: verified === true || verified === 'true' };
  }

  private discover(provider: OidcProviderConfig): Promise<Discovered> {
    let found = this.discovered.get(provider.id);
    if (!found) {
      const insecure = new URL(provider.issuer).protocol === 'http:';
      found = oidc
        .discovery(
          new URL(provider.issuer),
          provider.clientId,
          provider.clientSecret,
          !provider.clientSecret
            ? oidc.None()
            : provider.clientAuth === 'basic'
              ? oidc.ClientSecretBasic(provider.clientSecret)
              : undefined,
          insecure ? { execute: [oidc.allowInsecureRequests] } : undefined,
        )
        .then((config) => ({ config, jwks: createRemoteJWKSet(new URL(config.serverMetadata().jwks_uri!)) }));
      // A failed discovery is retried on the next sign-in instead of being cached.
      found.catch(() => this.discovered.delete(provider.id));
      this.discovered.set(provider.id, found);
    }
    return found;
  }
}

/**
 * Google Workspaces: the verified id_token's `hd` (hosted domain) claim must name an allowed domain; `*`
 * allows any Workspace domain but still needs the claim (personal Gmail accounts carry none). The `hd`
 * parameter of the authorisation URL only preselects accounts and is not a check.
 */
function checkHostedDomain(allowed: string[], hd: unknown): void {
  const domain = typeof hd === 'string' ? hd.trim().toLowerCase() : '';
  if (domain && (allowed.includes('*') || allowed.includes(domain))) return;
  const which = allowed.includes('*')
    ? 'a Google Workspace account'
    : `a Google Workspace account of ${allowed.join(' or ')}`;
  throw new ProviderRefusal(
    domain
      ? `Accounts of ${domain} cannot sign in here. Please use ${which}.`
      : `This is not a Google Workspace account. Please use ${which}.`,
  );
}

/** Sign in with Apple's client secret: an ES256 JWT from the team, for the Services ID, 5 minutes long. */
export async function appleClientSecret(
  clientId: string,
  key: { teamId: string; keyId: string; privateKey: string },
  /** Apple's issuer, which is also the audience it expects (https://appleid.apple.com). */
  audience = 'https://appleid.apple.com',
): Promise<string> {
  return new SignJWT({})
    .setProtectedHeader({ alg: 'ES256', kid: key.keyId })
    .setIssuer(key.teamId)
    .setSubject(clientId)
    .setAudience(audience)
    .setIssuedAt()
    .setExpirationTime('5m')
    .sign(await importPKCS8(key.privateKey, 'ES256'));
}

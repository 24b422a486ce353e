import * as oidc from 'openid-client';
import { createRemoteJWKSet, jwtVerify, type JWTVerifyGetKey } from 'jose';
import type { OidcProviderConfig } from '../../config.ts';
import type { Logger } from '../../logger.ts';

export interface ProviderProfile {
  /** The provider's stable user id (`sub`). */
  userId: string;
  email?: string;
  emailVerified: boolean;
}

export type ExchangeResult = { ok: true; profile: ProviderProfile } | { ok: false; reason: string };

interface Discovered {
  config: oidc.Configuration;
  jwks: JWTVerifyGetKey;
}

/**
 * Third-party sign-in over OpenID Connect (openid-client): discovery on first use, authorisation URLs
 * with PKCE S256 (the client keeps the verifier and its own `state`), the code exchange, and an
 * id_token verified against the provider's JWKS. Google is one configured provider among others.
 */
export class ThirdPartyProviders {
  private readonly discovered = new Map<string, Promise<Discovered>>();

  constructor(
    private readonly providers: OidcProviderConfig[],
    private readonly log: Logger,
  ) {}

  get(id: string): OidcProviderConfig | undefined {
    return this.providers.find((p) => p.id === id);
  }

  async authorisationUrl(
    id: string,
    redirectUri: string,
  ): Promise<{ url: string; pkceCodeVerifier: string }> {
    const provider = this.get(id)!;
    const { config } = await this.discover(provider);
    const pkceCodeVerifier = oidc.randomPKCECodeVerifier();
    const url = oidc.buildAuthorizationUrl(config, {
      redirect_uri: redirectUri,
      response_type: 'code',
      scope: provider.scopes.join(' '),
      code_challenge: await oidc.calculatePKCECodeChallenge(pkceCodeVerifier),
      code_challenge_method: 'S256',
      ...(id === 'google' ? { access_type: 'offline', include_granted_scopes: 'true' } : {}),
    });
    return { url: url.toString(), pkceCodeVerifier };
  }

  async exchange(
    id: string,
    input: { redirectUri: string; query: Record<string, string>; pkceCodeVerifier?: string },
  ): Promise<ExchangeResult> {
    const provider = this.get(id)!;
    try {
      const { config, jwks } = await this.discover(provider);
      const currentUrl = new URL(input.redirectUri);
      for (const [k, v] of Object.entries(input.query)) currentUrl.searchParams.set(k, v);
      const tokens = await oidc.authorizationCodeGrant(
        config,
        currentUrl,
        {
          pkceCodeVerifier: input.pkceCodeVerifier,
          // The web SDK checks `state` itself before calling us (CONTRACT §5.2).
          expectedState: input.query.state ?? oidc.skipStateCheck,
          idTokenExpected: true,
        },
        { redirect_uri: input.redirectUri },
      );
      const { payload } = await jwtVerify(tokens.id_token!, jwks, {
        issuer: config.serverMetadata().issuer,
        audience: provider.clientId,
      });
      let email = typeof payload.email === 'string' ? payload.email : undefined;
      let verified = payload.email_verified;
      if (!email && config.serverMetadata().userinfo_endpoint) {
        const info = await oidc.fetchUserInfo(config, tokens.access_token, payload.sub!);
        email = typeof info.email === 'string' ? info.email : undefined;
        verified = info.email_verified;
      }
      return {
        ok: true,
        profile: {
          userId: payload.sub!,
          email: email?.trim().toLowerCase(),
          emailVerified: verified === true || verified === 'true',
        },
      };
    } catch (err) {
      this.log.warn({ err, provider: id }, 'third-party sign-in failed');
      return { ok: false, reason: err instanceof Error ? err.message : String(err) };
    }
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
          provider.clientSecret ? undefined : oidc.None(),
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

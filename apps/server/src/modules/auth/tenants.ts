import type { AuthConfig } from '../../config.ts';

export const PUBLIC_TENANT = 'public';

/** Passwordless first factors for a contact method and flow type (SuperTokens factor ids). */
export function passwordlessFactors(
  contactMethod: AuthConfig['passwordless']['contactMethod'],
  flowType: AuthConfig['passwordless']['flowType'],
): string[] {
  const kinds =
    contactMethod === 'EMAIL' ? ['email'] : contactMethod === 'PHONE' ? ['phone'] : ['email', 'phone'];
  const flows =
    flowType === 'USER_INPUT_CODE' ? ['otp'] : flowType === 'MAGIC_LINK' ? ['link'] : ['otp', 'link'];
  return flows.flatMap((f) => kinds.map((k) => `${f}-${k}`));
}

export interface Tenant {
  id: string;
  firstFactors: string[];
  thirdPartyProviders: string[];
}

/**
 * Tenants come from configuration: `public` (always) plus TENANTS_JSON. A tenant offers the first
 * factors it lists, limited to what this server has enabled.
 */
export class Tenants {
  private readonly available: string[];

  private readonly providerIds: string[];

  constructor(private readonly auth: AuthConfig) {
    this.providerIds = [
      ...auth.oidcProviders,
      ...auth.oauth2Providers,
      ...(auth.saml ? [auth.saml] : []),
    ].map((p) => p.id);
    this.available = [
      ...passwordlessFactors(auth.passwordless.contactMethod, auth.passwordless.flowType),
      ...(this.providerIds.length > 0 ? ['thirdparty'] : []),
      'webauthn',
    ];
  }

  get(tenantId: string): Tenant | undefined {
    const configured = this.auth.tenants[tenantId];
    if (!configured && tenantId !== PUBLIC_TENANT) return undefined;
    const providers = configured?.thirdPartyProviders
      ? configured.thirdPartyProviders.filter((id) => this.providerIds.includes(id))
      : [...this.providerIds];
    const firstFactors = (configured?.firstFactors ?? this.available).filter(
      (f) => this.available.includes(f) && (f !== 'thirdparty' || providers.length > 0),
    );
    return {
      id: tenantId,
      firstFactors,
      thirdPartyProviders: firstFactors.includes('thirdparty') ? providers : [],
    };
  }

  /** Whether `factorId` may start a sign-in in the tenant. */
  allows(tenantId: string, factorId: string): boolean {
    return this.get(tenantId)?.firstFactors.includes(factorId) ?? false;
  }
}

import type { FastifyInstance } from 'fastify';
import type { AuthModule } from './auth.module.ts';
import { tenantOf, tenantRoute } from './fdi.http.ts';

/** Multitenancy recipe (docs/reference/supertokens-fdi/CONTRACT.md §6): the tenant's login methods, fields at the top level. */
export function multitenancyRoutes(app: FastifyInstance, auth: AuthModule): void {
  tenantRoute(app, 'GET', '/loginmethods', async (request) => {
    const tenant = tenantOf(auth, request);
    const passwordless = tenant.firstFactors.some((f) => /^(otp|link)-(email|phone)$/.test(f));
    return {
      status: 'OK',
      emailPassword: { enabled: false },
      thirdParty: {
        enabled: tenant.thirdPartyProviders.length > 0,
        providers: tenant.thirdPartyProviders.map((id) => ({
          id,
          name: auth.thirdParty.get(id)?.name ?? auth.saml?.get(id)?.name ?? id,
        })),
      },
      passwordless: { enabled: passwordless },
      webauthn: { enabled: false },
      firstFactors: tenant.firstFactors,
    };
  });
}

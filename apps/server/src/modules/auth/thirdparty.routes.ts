import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { AUTH_BASE_PATH, type AuthModule } from './auth.module.ts';
import { canonicalEmail, EMAIL_PROBLEMS } from './email-address.ts';
import { FdiBadRequest, parseBody, tenantOf, tenantRoute } from './fdi.http.ts';
import { completeSignIn } from './sign-in.ts';

const SignInUpBody = z.object({
  thirdPartyId: z.string().min(1).max(64),
  clientType: z.string().max(64).optional(),
  redirectURIInfo: z.object({
    redirectURIOnProviderDashboard: z.string().min(1).max(2000),
    redirectURIQueryParams: z.record(z.string(), z.string()),
    pkceCodeVerifier: z.string().min(1).max(200).optional(),
  }),
  shouldTryLinkingWithSessionUser: z.boolean().optional(),
});

/** ThirdParty recipe (docs/reference/supertokens-fdi/CONTRACT.md §5): authorisation URL with PKCE, then sign in / up with the code. */
export function thirdPartyRoutes(app: FastifyInstance, auth: AuthModule): void {
  const { config } = auth;
  // Callback pages we let providers send people back to: the web app's, on any allowed origin.
  const origins = [
    ...new Set(
      [auth.config.auth.webUrl, config.publicUrl, ...config.corsOrigins].map((u) => new URL(u).origin),
    ),
  ];
  const allowedRedirect = (id: string, uri: string) =>
    origins.some((origin) => uri === `${origin}${AUTH_BASE_PATH}/callback/${id}`);

  function providerFor(tenantProviders: string[], id: string) {
    const provider = auth.thirdParty.get(id) ?? auth.saml?.get(id);
    if (!provider || !tenantProviders.includes(id)) {
      throw new FdiBadRequest(`the provider ${id} could not be found in the configuration`);
    }
    return provider;
  }

  tenantRoute(app, 'GET', '/authorisationurl', async (request) => {
    const tenant = tenantOf(auth, request);
    const query = request.query as { thirdPartyId?: string; redirectURIOnProviderDashboard?: string };
    if (!query.thirdPartyId) throw new FdiBadRequest('Please provide the thirdPartyId as a GET param');
    if (!query.redirectURIOnProviderDashboard) {
      throw new FdiBadRequest('Please provide the redirectURIOnProviderDashboard as a GET param');
    }
    const provider = providerFor(tenant.thirdPartyProviders, query.thirdPartyId);
    if (!allowedRedirect(provider.id, query.redirectURIOnProviderDashboard)) {
      throw new FdiBadRequest('redirectURIOnProviderDashboard is not an allowed callback address');
    }
    const { url, pkceCodeVerifier } =
      provider.id === auth.saml?.id
        ? {
            url: auth.saml.authorisationUrl(tenant.id, query.redirectURIOnProviderDashboard),
            pkceCodeVerifier: undefined,
          }
        : await auth.thirdParty.authorisationUrl(provider.id, query.redirectURIOnProviderDashboard);
    return { status: 'OK', urlWithQueryParams: url, pkceCodeVerifier };
  });

  /** The longest redirect the Apple callback sends on (code, id_token, state and user, with room to spare). */
  const APPLE_CALLBACK_MAX_LOCATION = 8192;

  // Apple posts the code to the API (response_mode=form_post; the web SDK's Apple button uses
  // `{apiDomain}/auth/callback/apple` as the redirect URI). Send the browser on to the web callback page
  // with the same fields as a query, as supertokens-node does. The page comes from the SDK's `state`
  // (`frontendRedirectURI`), and only one of our own callback pages is accepted.
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string' },
    (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(String(body)))),
  );
  app.post('/callback/apple', async (request, reply) => {
    const form = (request.body ?? {}) as Record<string, string>;
    let target = `${config.auth.webUrl}${AUTH_BASE_PATH}/callback/apple`;
    try {
      const state = JSON.parse(Buffer.from(form.state ?? '', 'base64').toString('utf8')) as {
        frontendRedirectURI?: unknown;
      };
      if (
        typeof state.frontendRedirectURI === 'string' &&
        allowedRedirect('apple', state.frontendRedirectURI)
      ) {
        target = state.frontendRedirectURI;
      }
    } catch {
      // No readable state: the web callback page reports the missing state itself.
    }
    const url = new URL(target);
    for (const [key, value] of Object.entries(form)) {
      if (typeof value === 'string') url.searchParams.set(key, value);
    }
    // The fields travel on in the Location header: bounded, so an oversize post cannot make a header
    // that proxies and browsers refuse (Apple's real fields are well under a few KB).
    const location = url.toString();
    if (location.length > APPLE_CALLBACK_MAX_LOCATION) {
      throw new FdiBadRequest('The sign-in response from Apple is too large. Please try signing in again.');
    }
    return reply.redirect(location, 303);
  });

  tenantRoute(app, 'POST', '/signinup', async (request, reply) => {
    const tenant = tenantOf(auth, request);
    const body = parseBody(SignInUpBody, request.body);
    const provider = providerFor(tenant.thirdPartyProviders, body.thirdPartyId);
    const info = body.redirectURIInfo;
    if (!allowedRedirect(provider.id, info.redirectURIOnProviderDashboard)) {
      throw new FdiBadRequest('redirectURIOnProviderDashboard is not an allowed callback address');
    }
    if (!info.redirectURIQueryParams.code) {
      return {
        status: 'FIELD_ERROR',
        error: `${provider.name} did not send an authorisation code. Please try again.`,
      };
    }
    const exchanged =
      provider.id === auth.saml?.id
        ? await auth.saml.exchange(tenant.id, {
            redirectUri: info.redirectURIOnProviderDashboard,
            code: info.redirectURIQueryParams.code,
          })
        : await auth.thirdParty.exchange(provider.id, {
            redirectUri: info.redirectURIOnProviderDashboard,
            query: info.redirectURIQueryParams,
            pkceCodeVerifier: info.pkceCodeVerifier,
          });
    if (!exchanged.ok && 'refused' in exchanged && exchanged.refused) {
      return { status: 'SIGN_IN_UP_NOT_ALLOWED', reason: exchanged.reason };
    }
    if (!exchanged.ok) {
      return {
        status: 'GENERAL_ERROR',
        message: `Signing in with ${provider.name} failed. Please try again.`,
      };
    }
    const { profile } = exchanged;
    if (!profile.email) return { status: 'NO_EMAIL_GIVEN_BY_PROVIDER' };
    const address = canonicalEmail(profile.email);
    if (!address.ok) {
      return {
        status: 'SIGN_IN_UP_NOT_ALLOWED',
        reason: `The email address ${provider.name} gave us ${EMAIL_PROBLEMS[address.reason]}, so it cannot be used here. Please sign in another way.`,
      };
    }
    const signIn = await auth.users.signInUpThirdParty(tenant.id, {
      thirdPartyId: provider.id,
      thirdPartyUserId: profile.userId,
      email: address.email,
      // The provider vouched for the mailbox it named; once invisible or compatibility characters are
      // folded out of the local part, that is another mailbox, which it has not vouched for.
      verified: profile.emailVerified && !address.localPartChanged,
    });
    if ('status' in signIn) {
      return {
        status: 'SIGN_IN_UP_NOT_ALLOWED',
        reason:
          'Cannot sign in / up due to security reasons. Please try a different login method or contact support. (ERR_CODE_006)',
      };
    }
    return completeSignIn(auth, request, reply, signIn, { tenantId: tenant.id, factorId: 'thirdparty' });
  });
}

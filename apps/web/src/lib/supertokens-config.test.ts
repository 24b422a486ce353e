import { describe, expect, it } from 'vitest';
import { contracts, type EmailVerificationMode } from '@lumina/contracts';
import { setupLocalServer } from '@/testing/api-server';
import { answer, answerError } from '@/testing/fake-api';
import {
  authAppInfo,
  authUrlFor,
  contactMethodFor,
  emailVerificationModeFor,
  fetchPublicAuthConfig,
  loginMethodsUrl,
  successRedirectPath,
} from './supertokens-config';

describe('SuperTokens set-up', () => {
  it('puts the prebuilt UI and the FDI server under /auth on the same origin by default', () => {
    expect(authAppInfo('', 'http://localhost:3000')).toEqual({
      apiDomain: 'http://localhost:3000',
      apiBasePath: '/auth',
      websiteDomain: 'http://localhost:3000',
      websiteBasePath: '/auth',
    });
  });

  it('uses a configured API base: its origin as the API domain, its path as the gateway path', () => {
    expect(authAppInfo('https://api.example.com', 'https://app.example.com')).toMatchObject({
      apiDomain: 'https://api.example.com',
      websiteDomain: 'https://app.example.com',
    });
    expect(authAppInfo('https://api.example.com/v1', 'https://app.example.com')).toMatchObject({
      apiDomain: 'https://api.example.com',
      apiGatewayPath: '/v1',
    });
    expect(authAppInfo('/prefix', 'http://localhost:3000')).toMatchObject({
      apiDomain: 'http://localhost:3000',
      apiGatewayPath: '/prefix',
    });
  });

  it.each([
    [undefined, 'EMAIL'],
    [{}, 'EMAIL'],
    [{ firstFactors: ['otp-email', 'link-email', 'thirdparty'] }, 'EMAIL'],
    [{ firstFactors: ['otp-phone', 'link-phone'] }, 'PHONE'],
    [{ firstFactors: ['otp-email', 'otp-phone'] }, 'EMAIL_OR_PHONE'],
  ] as const)('derives the passwordless contact method from the server (%j → %s)', (methods, expected) => {
    expect(contactMethodFor(methods)).toBe(expected);
  });

  it('sends a new session to the original path, else to onboarding (SPEC.md §4)', () => {
    expect(successRedirectPath({ newSessionCreated: true, redirectToPath: '/gallery' })).toBe('/gallery');
    expect(successRedirectPath({ newSessionCreated: true })).toBe('/onboarding');
    expect(successRedirectPath({ newSessionCreated: false, redirectToPath: '/gallery' })).toBeUndefined();
  });

  it('asks the tenant from the ?tenantId= query for its login methods, behind the API base', () => {
    expect(loginMethodsUrl('', 'http://localhost:3000', '')).toBe('http://localhost:3000/auth/loginmethods');
    expect(loginMethodsUrl('', 'http://localhost:3000', '?tenantId=public')).toBe(
      'http://localhost:3000/auth/loginmethods',
    );
    expect(loginMethodsUrl('', 'http://localhost:3000', '?show=signin&tenantId=acme')).toBe(
      'http://localhost:3000/auth/acme/loginmethods',
    );
    expect(loginMethodsUrl('https://api.example.com/v1', 'https://app.example.com', '?tenantId=acme')).toBe(
      'https://api.example.com/v1/auth/acme/loginmethods',
    );
  });

  it('builds the auth URL that returns to a page', () => {
    expect(authUrlFor('/gallery?tab=saved')).toBe('/auth?redirectToPath=%2Fgallery%3Ftab%3Dsaved');
  });
});

describe('email verification mode from the server', () => {
  const server = setupLocalServer();

  it('reads GET /api/auth/config without a token and makes the recipe REQUIRED only when the server requires it', async () => {
    let mode: EmailVerificationMode = 'required';
    server.on(contracts.authConfig, () => answer(contracts.authConfig, { emailVerification: mode }));
    const config = await fetchPublicAuthConfig(server.url);
    expect(config).toEqual({ emailVerification: 'required' });
    expect(server.requests.at(-1)?.headers.authorization).toBeUndefined();
    expect(emailVerificationModeFor(config?.emailVerification)).toBe('REQUIRED');

    mode = 'optional';
    expect(emailVerificationModeFor((await fetchPublicAuthConfig(server.url))?.emailVerification)).toBe(
      'OPTIONAL',
    );
    mode = 'off';
    expect(emailVerificationModeFor((await fetchPublicAuthConfig(server.url))?.emailVerification)).toBe(
      'OPTIONAL',
    );
  });

  it('stays OPTIONAL when the settings cannot be read (the server still enforces st-ev)', async () => {
    server.on(contracts.authConfig, () => answerError(500, 'INTERNAL', 'down'));
    const config = await fetchPublicAuthConfig(server.url);
    expect(config).toBeUndefined();
    expect(emailVerificationModeFor(config?.emailVerification)).toBe('OPTIONAL');
  });
});

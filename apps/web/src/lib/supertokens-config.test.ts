import { describe, expect, it } from 'vitest';
import { contracts, type EmailVerificationMode } from '@lumina/contracts';
import { setupLocalServer } from '@/testing/api-server';
import { answer, answerError } from '@/testing/fake-api';
import commonEn from '../../public/locales/en/common.json';
import {
  accessDeniedText,
  allowedEmailDomainsValidator,
  guardClaimValidators,
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

describe('st-t-dmns (tenant allowed email domains) on the web', () => {
  const token = (claims: Record<string, unknown>) => ({ sub: 'u', tId: 'acme', ...claims });

  it('passes a token without the claim (the public tenant) and a person of an allowed domain', () => {
    expect(allowedEmailDomainsValidator.validate(token({}))).toEqual({ isValid: true });
    expect(
      allowedEmailDomainsValidator.validate(
        token({ 'st-t-dmns': { v: ['acme.com'], t: 1 }, 'lumina-email-domain': 'acme.com' }),
      ),
    ).toEqual({ isValid: true });
  });

  it('fails another domain, a subdomain, or no verified address, with the reason the server sends', () => {
    const claim = { 'st-t-dmns': { v: ['acme.com'], t: 1 } };
    expect(
      allowedEmailDomainsValidator.validate(token({ ...claim, 'lumina-email-domain': 'other.com' })),
    ).toEqual({
      isValid: false,
      reason: { message: 'wrong value', expectedToInclude: 'other.com', actualValue: ['acme.com'] },
    });
    expect(
      allowedEmailDomainsValidator.validate(token({ ...claim, 'lumina-email-domain': 'eng.acme.com' }))
        .isValid,
    ).toBe(false);
    expect(
      allowedEmailDomainsValidator.validate(token({ ...claim, 'lumina-email-domain': null })).isValid,
    ).toBe(false);
  });

  it('is marked to show the access-denied screen and never asks to refresh', () => {
    expect(allowedEmailDomainsValidator.showAccessDeniedOnFailure).toBe(true);
    expect(allowedEmailDomainsValidator.shouldRefresh()).toBe(false);
  });

  it("joins SessionAuth's global validators once, after the SDK's own (st-mfa and st-ev redirect first)", () => {
    const mfa = { id: 'st-mfa' };
    const ev = { id: 'st-ev' };
    const required = guardClaimValidators('REQUIRED');
    expect(required([mfa, ev]).map((v) => v.id)).toEqual(['st-mfa', 'st-ev', 'st-t-dmns']);
    expect(required([mfa, allowedEmailDomainsValidator]).map((v) => v.id)).toEqual(['st-mfa', 'st-t-dmns']);
  });

  it('leaves st-ev out when the server does not require verified addresses (both of the SDK’s copies)', () => {
    const optional = guardClaimValidators('OPTIONAL');
    expect(optional([{ id: 'st-mfa' }, { id: 'st-ev' }, { id: 'st-ev' }]).map((v) => v.id)).toEqual([
      'st-mfa',
      'st-t-dmns',
    ]);
  });

  it('explains the refusal on the access-denied screen with existing translations', () => {
    const denied = accessDeniedText({
      id: 'st-t-dmns',
      reason: {
        message: 'wrong value',
        expectedToInclude: 'other.com',
        actualValue: ['acme.com', 'acme.co.uk'],
      },
    });
    expect(denied).toEqual({
      key: 'auth.accessDenied.allowedDomains',
      values: { domains: 'acme.com, acme.co.uk', actual: 'other.com' },
    });
    expect(
      accessDeniedText({ id: 'st-t-dmns', reason: { expectedToInclude: null, actualValue: ['acme.com'] } })
        .key,
    ).toBe('auth.accessDenied.allowedDomainsNoEmail');
    expect(accessDeniedText({ id: 'st-mfa' }).key).toBe('auth.accessDenied.other');
    const texts = commonEn.auth.accessDenied;
    for (const key of ['allowedDomains', 'allowedDomainsNoEmail', 'other'] as const)
      expect(texts[key]).toContain('Sign out');
  });
});

import { describe, expect, it } from 'vitest';
import { authAppInfo, authUrlFor, contactMethodFor, successRedirectPath } from './supertokens-config';

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

  it('sends a new session to the original path, else to onboarding (spec section 4)', () => {
    expect(successRedirectPath({ newSessionCreated: true, redirectToPath: '/gallery' })).toBe('/gallery');
    expect(successRedirectPath({ newSessionCreated: true })).toBe('/onboarding');
    expect(successRedirectPath({ newSessionCreated: false, redirectToPath: '/gallery' })).toBeUndefined();
  });

  it('builds the auth URL that returns to a page', () => {
    expect(authUrlFor('/gallery?tab=saved')).toBe('/auth?redirectToPath=%2Fgallery%3Ftab%3Dsaved');
  });
});

import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import SuperTokens from 'supertokens-auth-react';
import EmailVerification from 'supertokens-auth-react/recipe/emailverification';
import Session from 'supertokens-auth-react/recipe/session';
import { setupApiServer } from '@/testing/api-server';
import { json } from '@/testing/local-server';
import { renderWithApp } from '@/testing/app-harness';
import commonEn from '../../../../public/locales/en/common.json';
import { SDK_TRANSLATIONS, SIGN_OUT } from '@/lib/supertokens-translations';
import SessionGuard from './session-guard';

/**
 * The real SDK's SessionAuth with our guard's props, on a session whose access token (the front-token
 * the SDK reads) carries a failing or passing `st-t-dmns`: the SDK's own access-denied screen, or the page.
 */
const { server, i18n } = setupApiServer();

function storeFrontToken(up: Record<string, unknown>) {
  const frontToken = btoa(JSON.stringify({ uid: 'user-1', ate: Date.now() + 3_600_000, up }));
  // What the SDK stores after a sign-in in header mode (supertokens-website's cookie names).
  document.cookie = `sFrontToken=${frontToken}; path=/`;
  document.cookie = `st-last-access-token-update=${Date.now()}; path=/`;
  document.cookie = 'st-access-token=unused; path=/';
}

beforeAll(() => {
  SuperTokens.init({
    appInfo: {
      appName: 'Lumina',
      apiDomain: server.url,
      websiteDomain: window.location.origin,
      apiBasePath: '/auth',
      websiteBasePath: '/auth',
    },
    useShadowDom: false,
    languageTranslations: { defaultLanguage: 'en', translations: SDK_TRANSLATIONS },
    recipeList: [
      Session.init({ tokenTransferMethod: 'header' }),
      EmailVerification.init({ mode: 'OPTIONAL' }),
    ],
  });
});
afterEach(cleanup);
afterAll(() => {
  document.cookie = 'sFrontToken=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/';
});

/** The guard around a page, as the app mounts it. */
const renderGuard = () =>
  renderWithApp(
    <SessionGuard>
      <p>protected page</p>
    </SessionGuard>,
    { i18n },
  );

const base = { sub: 'user-1', tId: 'acme', sessionHandle: 'h', exp: Math.floor(Date.now() / 1000) + 3600 };

describe('SessionGuard and st-t-dmns', () => {
  it('shows the SDK access-denied screen, with the reason and a Sign out button, to a person of another domain', async () => {
    storeFrontToken({ ...base, 'st-t-dmns': { v: ['acme.com'], t: 1 }, 'lumina-email-domain': 'other.com' });
    renderGuard();
    expect(await screen.findByText('Access denied')).toBeTruthy();
    expect(
      screen.getByText(
        commonEn.auth.accessDenied.allowedDomains
          .replace('{{domains}}', 'acme.com')
          .replace('{{actual}}', 'other.com'),
      ),
    ).toBeTruthy();
    expect(screen.getByRole('button', { name: SIGN_OUT })).toBeTruthy();
    expect(screen.queryByText('protected page')).toBeNull();
  });

  it('offers a person whose sign-in has an unverified address the link that verifies it', async () => {
    storeFrontToken({ ...base, 'st-t-dmns': { v: ['acme.com'], t: 1 }, 'lumina-email-domain': null });
    server.route('GET', '/auth/user/email/verify', (_req, res) =>
      json(res, 200, { status: 'OK', isVerified: false }),
    );
    server.route('POST', '/auth/user/email/verify/token', (_req, res) => json(res, 200, { status: 'OK' }));
    renderGuard();
    expect(
      await screen.findByText(
        commonEn.auth.accessDenied.allowedDomainsNoEmail.replace('{{domains}}', 'acme.com'),
      ),
    ).toBeTruthy();
    const send = await screen.findByRole('button', { name: commonEn.auth.verifyToEnter.send });
    fireEvent.click(send);
    expect((await screen.findByRole('status')).textContent).toBe(commonEn.auth.verifyToEnter.sent);
    expect(
      server.requests.filter((r) => r.method === 'POST' && r.url === '/auth/user/email/verify/token'),
    ).toHaveLength(1);
    expect(screen.queryByText('protected page')).toBeNull();
  });

  it('offers nothing to verify when the sign-in has no email at all (a phone number counts as verified)', async () => {
    storeFrontToken({ ...base, 'st-t-dmns': { v: ['acme.com'], t: 1 }, 'lumina-email-domain': null });
    server.route('GET', '/auth/user/email/verify', (_req, res) =>
      json(res, 200, { status: 'OK', isVerified: true }),
    );
    renderGuard();
    expect(await screen.findByText('Access denied')).toBeTruthy();
    // It asked (and heard "verified"), then a moment for a button that must not come.
    await waitFor(() => expect(server.requests.some((r) => r.url === '/auth/user/email/verify')).toBe(true), {
      timeout: 5000,
    });
    await new Promise((r) => setTimeout(r, 100));
    expect(screen.queryByRole('button', { name: commonEn.auth.verifyToEnter.send })).toBeNull();
  });

  it('shows the page to a person whose address is unverified when the server does not require verification', async () => {
    // st-ev false, as the server sets it for a passkey sign-up or an address a provider does not vouch for.
    storeFrontToken({ ...base, tId: 'public', 'st-ev': { v: false, t: Date.now() } });
    server.route('GET', '/auth/user/email/verify', (_req, res) =>
      json(res, 200, { status: 'OK', isVerified: false }),
    );
    renderGuard();
    expect(await screen.findByText('protected page')).toBeTruthy();
    expect(screen.queryByText('Access denied')).toBeNull();
  });

  it('shows the page to a person of an allowed domain', async () => {
    storeFrontToken({ ...base, 'st-t-dmns': { v: ['acme.com'], t: 1 }, 'lumina-email-domain': 'acme.com' });
    renderGuard();
    expect(await screen.findByText('protected page')).toBeTruthy();
    expect(screen.queryByText('Access denied')).toBeNull();
  });
});

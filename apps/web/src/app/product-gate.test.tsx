import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen } from '@testing-library/react';
import { contracts } from '@lumina/contracts';
import { productSession, sessionStore, setSignedIn, setSignedOut } from '@/lib/auth';
import type * as AuthModule from '@/lib/auth';
import type * as ApiClientModule from '@/lib/api-client';
import { gatingClaims } from '@/lib/supertokens-config';
import { setupApiServer } from '@/testing/api-server';
import { renderWithApp } from '@/testing/app-harness';
import { CreditBalance } from '@/features/credits/components/credit-balance';
import commonEn from '../../public/locales/en/common.json';
import { UserMenu } from '@/features/auth/components/user-menu';

// Product calls go through the app's API client to the local server, with a fixed token.
const { server, i18n } = setupApiServer();
vi.mock('@/lib/api-client', async (importOriginal) => {
  const original = await importOriginal<typeof ApiClientModule>();
  return {
    ...original,
    api: original.createApiClient({
      baseUrl: '',
      fetch: (input, init) => fetch(`${server.url}${String(input)}`, init),
      getAccessToken: () => 'token-1',
    }),
  };
});
vi.mock('@/lib/auth', async (importOriginal) => {
  const original = await importOriginal<typeof AuthModule>();
  return { ...original, getAccessToken: async () => 'token-1' };
});

const USER_ID = '0b6f6a36-5d55-4c1e-9d4b-6a1f3f1f0b11';
const productCalls = () => server.requests.filter((r) => r.url.startsWith('/api/'));

afterEach(() => {
  cleanup();
  sessionStore.setState({ status: 'unknown', userId: null, pending: false });
});

describe('the gate on product calls while a sign-in waits for its second factor', () => {
  it('reads the access token as the server does: st-mfa must pass, st-ev only when verification is required', () => {
    const token = (mfa: unknown, ev?: unknown) => ({
      sub: 'u',
      'st-mfa': mfa === undefined ? undefined : { c: {}, v: mfa },
      ...(ev === undefined ? {} : { 'st-ev': { v: ev, t: 1 } }),
    });
    expect(gatingClaims(token(true), 'OPTIONAL').complete).toBe(true);
    expect(gatingClaims(token(false), 'OPTIONAL').complete).toBe(false);
    expect(gatingClaims(token(undefined), 'OPTIONAL').complete).toBe(false);
    expect(gatingClaims(token(true, false), 'OPTIONAL').complete).toBe(true);
    expect(gatingClaims(token(true, false), 'REQUIRED').complete).toBe(false);
    expect(gatingClaims(token(true), 'REQUIRED').complete).toBe(false);
    expect(gatingClaims(token(true, true), 'REQUIRED').complete).toBe(true);
    // The key changes with either claim's validity (a factor or a verification just completed).
    expect(gatingClaims(token(false), 'OPTIONAL').key).not.toBe(gatingClaims(token(true), 'OPTIONAL').key);
    expect(gatingClaims(token(true, false), 'OPTIONAL').key).not.toBe(
      gatingClaims(token(true, true), 'OPTIONAL').key,
    );
  });

  it('gives product queries a user only once the session is known and complete, with a new key when it completes', () => {
    expect(productSession(sessionStore.getState()).userId).toBeNull();
    setSignedIn('u-1', { complete: false });
    const pendingKey = sessionStore.getState().sessionKey;
    expect(sessionStore.getState()).toMatchObject({ status: 'signedIn', userId: 'u-1', pending: true });
    expect(productSession(sessionStore.getState()).userId).toBeNull();
    setSignedIn('u-1', { complete: true });
    expect(productSession(sessionStore.getState())).toEqual({ userId: 'u-1', sessionKey: pendingKey + 1 });
    // Reading the same complete session again changes nothing.
    setSignedIn('u-1', { complete: true });
    expect(sessionStore.getState().sessionKey).toBe(pendingKey + 1);
    setSignedOut();
    expect(productSession(sessionStore.getState()).userId).toBeNull();
    expect(sessionStore.getState().pending).toBe(false);
  });

  it('the header asks for no profile and no balance and shows no error while pending; once complete it loads both', async () => {
    server.answer(contracts.currentUser, {
      id: USER_ID,
      email: 'ada@example.com',
      is_operator: false,
      onboarded: true,
    });
    server.answer(contracts.creditBalance, { balance: 12 });
    setSignedIn(USER_ID, { complete: false });
    renderWithApp(
      <>
        <CreditBalance />
        <UserMenu placement="bar" />
      </>,
      { i18n },
    );
    // The way out is there; nothing behind sign-in is asked for, so nothing can fail.
    expect(await screen.findByRole('button', { name: commonEn.header.signOut })).toBeTruthy();
    await new Promise((r) => setTimeout(r, 150));
    expect(productCalls()).toEqual([]);
    expect(screen.queryByTestId('profile-error')).toBeNull();
    expect(screen.queryByTestId('user-email')).toBeNull();
    expect(screen.queryByTestId('credit-badge')).toBeNull();

    // The second factor is done (the SDK's access-token event reaches the store).
    setSignedIn(USER_ID, { claimsChanged: true, complete: true });
    // Two real requests to the local server and a render: room for a loaded machine.
    expect((await screen.findByTestId('user-email', {}, { timeout: 5000 })).textContent).toBe(
      'ada@example.com',
    );
    expect((await screen.findByTestId('credit-balance', {}, { timeout: 5000 })).textContent).toBe('12');
    expect(
      productCalls()
        .map((r) => r.url)
        .sort(),
    ).toEqual(['/api/credits/balance', '/api/user']);
    expect(screen.queryByTestId('profile-error')).toBeNull();
  });
});

import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen } from '@testing-library/react';
import { contracts } from '@lumina/contracts';
import { sessionStore } from '@/lib/auth';
import type * as AuthModule from '@/lib/auth';
import type * as ApiClientModule from '@/lib/api-client';
import { setupApiServer } from '@/testing/api-server';
import { renderWithApp } from '@/testing/app-harness';
import { answer, answerError } from '@/testing/fake-api';
import commonEn from '../../../../public/locales/en/common.json';
import { UserMenu } from './user-menu';

// The profile call goes through the app's API client; point it at the local server with a fixed token.
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
afterEach(() => {
  cleanup();
  sessionStore.setState({ status: 'unknown', userId: null });
});

function renderMenu() {
  return renderWithApp(<UserMenu placement="bar" />, { i18n });
}

describe('header account area', () => {
  it('offers "Sign in" when signed out', async () => {
    sessionStore.setState({ status: 'signedOut', userId: null });
    renderMenu();
    const link = await screen.findByRole('link', { name: commonEn.header.signIn });
    expect(link.getAttribute('href')).toBe('/auth');
  });

  it("shows the user's email and a sign-out button when signed in", async () => {
    server.answer(contracts.currentUser, {
      id: USER_ID,
      email: 'ada@example.com',
      is_operator: false,
      onboarded: true,
    });
    sessionStore.setState({ status: 'signedIn', userId: 'u-1' });
    renderMenu();
    expect((await screen.findByTestId('user-email')).textContent).toBe('ada@example.com');
    expect(screen.getByRole('button', { name: commonEn.header.signOut })).toBeTruthy();
  });

  it('links operators, and only operators, to the vendors page', async () => {
    server.answer(contracts.currentUser, {
      id: USER_ID,
      email: 'ops@example.com',
      is_operator: true,
      onboarded: true,
    });
    sessionStore.setState({ status: 'signedIn', userId: 'u-operator' });
    renderMenu();
    const link = await screen.findByTestId('operator-vendors-link');
    expect(link.getAttribute('href')).toBe('/operator/vendors');
    expect(link.textContent).toBe(commonEn.header.operatorVendors);
    cleanup();

    server.answer(contracts.currentUser, {
      id: USER_ID,
      email: 'ada@example.com',
      is_operator: false,
      onboarded: true,
    });
    sessionStore.setState({ status: 'signedIn', userId: 'u-customer' });
    renderMenu();
    await screen.findByTestId('user-email');
    expect(screen.queryByTestId('operator-vendors-link')).toBeNull();
  });

  it.each([
    [
      'emailNotFound',
      () => answer(contracts.currentUser, { id: USER_ID, email: null, is_operator: false, onboarded: true }),
    ],
    ['fetchFailed', () => answerError(404, 'NOT_FOUND', 'gone')],
  ] as const)('shows the spec message when the profile fails (%s)', async (reason, reply) => {
    server.on(contracts.currentUser, reply);
    sessionStore.setState({ status: 'signedIn', userId: `u-${reason}` });
    renderMenu();
    expect((await screen.findByTestId('profile-error')).textContent).toBe(
      commonEn.auth.profileErrors[reason],
    );
    expect(screen.queryByTestId('user-email')).toBeNull();
  });
});

import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { QueryClient } from '@tanstack/react-query';
import type { i18n as I18n } from 'i18next';
import { AppProvider } from '@/app/provider';
import { createI18n } from '@/lib/i18n';
import { sessionStore } from '@/lib/auth';
import type * as AuthModule from '@/lib/auth';
import type * as ApiClientModule from '@/lib/api-client';
import { json, startLocalServer, type LocalServer } from '@/testing/local-server';
import commonEn from '../../../../public/locales/en/common.json';
import { UserMenu } from './user-menu';

// The profile call goes through the app's API client; point it at the local server with a fixed token.
let server: LocalServer;
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
let i18n: I18n;
beforeAll(async () => {
  server = await startLocalServer();
  i18n = await createI18n({ loadPath: `${server.url}/locales/{{lng}}/{{ns}}.json` });
});
afterAll(() => server.close());
afterEach(() => {
  cleanup();
  sessionStore.setState({ status: 'unknown', userId: null });
});

function renderMenu() {
  const router = createMemoryRouter([{ path: '*', element: <UserMenu placement="bar" /> }]);
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <AppProvider i18n={i18n} queryClient={queryClient}>
      <RouterProvider router={router} />
    </AppProvider>,
  );
}

describe('header account area', () => {
  it('offers "Sign in" when signed out', async () => {
    sessionStore.setState({ status: 'signedOut', userId: null });
    renderMenu();
    const link = await screen.findByRole('link', { name: commonEn.header.signIn });
    expect(link.getAttribute('href')).toBe('/auth');
  });

  it("shows the user's email and a sign-out button when signed in", async () => {
    server.route('GET', '/api/user', (_req, res) =>
      json(res, 200, { id: USER_ID, email: 'ada@example.com', is_operator: false }),
    );
    sessionStore.setState({ status: 'signedIn', userId: 'u-1' });
    renderMenu();
    expect((await screen.findByTestId('user-email')).textContent).toBe('ada@example.com');
    expect(screen.getByRole('button', { name: commonEn.header.signOut })).toBeTruthy();
  });

  it.each([
    [
      'emailNotFound',
      (res: Parameters<typeof json>[0]) => json(res, 200, { id: USER_ID, email: null, is_operator: false }),
    ],
    ['fetchFailed', (res: Parameters<typeof json>[0]) => json(res, 404, { detail: 'gone' })],
  ] as const)('shows the spec message when the profile fails (%s)', async (reason, reply) => {
    server.route('GET', '/api/user', (_req, res) => reply(res));
    sessionStore.setState({ status: 'signedIn', userId: `u-${reason}` });
    renderMenu();
    expect((await screen.findByTestId('profile-error')).textContent).toBe(
      commonEn.auth.profileErrors[reason],
    );
    expect(screen.queryByTestId('user-email')).toBeNull();
  });
});

import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import type { ReactNode } from 'react';
import { contracts, type OnboardingView } from '@lumina/contracts';
import { sessionStore } from '@/lib/auth';
import type * as AuthModule from '@/lib/auth';
import { newQueryClient } from '@/testing/app-harness';
import { setupApiServer } from '@/testing/api-server';
import { answer, answerError } from '@/testing/fake-api';
import commonEn from '../../public/locales/en/common.json';
import { AppProvider } from './provider';
import { routes } from './router';

// The SDK is exercised by the Playwright tests; here a session with a token is assumed.
vi.mock('@/lib/auth', async (importOriginal) => ({
  ...(await importOriginal<typeof AuthModule>()),
  loadSuperTokens: async () => ({}),
  getAccessToken: async () => 'token-1',
}));
vi.mock('@/features/auth/components/session-guard', () => ({
  default: ({ children }: { children: ReactNode }) => children,
}));

const { server, i18n } = setupApiServer();
const USER_ID = '3f1e2d3c-4b5a-4c6d-8e7f-9a0b1c2d3e4f';

const view = (onboarded: boolean): OnboardingView => ({
  use_case: null,
  country: null,
  phone: null,
  referral_source: null,
  gender: null,
  onboarded,
  completed_at: null,
  skipped_at: onboarded ? '2026-01-01T12:00:00.000Z' : null,
});

let onboarded = false;
beforeAll(() => {
  server.answer(contracts.publicConfig, {
    analytics: null,
    referrals: { reward_credits: 100, welcome_credits: 50, monthly_cap: 20, settle_days: 14 },
  });
  server.on(contracts.currentUser, () =>
    answer(contracts.currentUser, { id: USER_ID, email: 'ada@example.com', is_operator: false, onboarded }),
  );
  server.on(contracts.onboarding, () => answer(contracts.onboarding, view(onboarded)));
  server.on(contracts.skipOnboarding, () => {
    onboarded = true;
    return answer(contracts.skipOnboarding, view(true));
  });
  server.answer(contracts.products, []);
  server.answer(contracts.pendingImageSets, { sets: [] });
  server.answer(contracts.legalDocument, {
    page: 'terms',
    markdown: '# Terms\n\nThe text.',
    is_default: false,
  });
});
beforeEach(() => {
  onboarded = false;
  sessionStorage.clear();
  sessionStore.setState({ status: 'signedIn', userId: USER_ID });
});
afterEach(() => {
  cleanup();
  sessionStore.setState({ status: 'unknown', userId: null });
});

function renderAt(path: string) {
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  render(
    <AppProvider i18n={i18n} queryClient={newQueryClient()}>
      <RouterProvider router={router} />
    </AppProvider>,
  );
  return router;
}

// The route's page settles after a redirect and a lazy load: wait for the expected page's heading by name
// (reading the first heading found races with the page still changing), with room for a loaded machine.
const heading = (name: string) => screen.findByRole('heading', { level: 1, name }, { timeout: 5000 });

describe('the onboarding guard', () => {
  it('sends a person who is not onboarded from an app page to /onboarding, set to return there', async () => {
    const router = renderAt('/gallery?tab=saved');
    expect(await heading(commonEn.pages.onboarding.title)).toBeTruthy();
    expect(`${router.state.location.pathname}${router.state.location.search}`).toBe(
      `/onboarding?next=${encodeURIComponent('/gallery?tab=saved')}`,
    );
  });

  it('lets them skip, then opens the page they first asked for, and lets them stay there', async () => {
    const router = renderAt('/models');
    fireEvent.click(await screen.findByTestId('onboarding-skip', undefined, { timeout: 5000 }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/models'), { timeout: 5000 });
    expect(await heading(commonEn.pages.models.title)).toBeTruthy();
  });

  it('opens app pages for a person who is onboarded', async () => {
    onboarded = true;
    const router = renderAt('/models');
    expect(await heading(commonEn.pages.models.title)).toBeTruthy();
    expect(router.state.location.pathname).toBe('/models');
  });

  it('leaves public pages alone', async () => {
    const router = renderAt('/terms');
    expect(await heading('Terms')).toBeTruthy();
    expect(router.state.location.pathname).toBe('/terms');
  });

  it('opens the page when the profile cannot be loaded (onboarding is an offer, not a wall)', async () => {
    server.on(contracts.currentUser, () => answerError(503, 'SERVICE_UNAVAILABLE', 'Down for a moment'));
    try {
      const router = renderAt('/models');
      expect(await heading(commonEn.pages.models.title)).toBeTruthy();
      expect(router.state.location.pathname).toBe('/models');
    } finally {
      server.on(contracts.currentUser, () =>
        answer(contracts.currentUser, {
          id: USER_ID,
          email: 'ada@example.com',
          is_operator: false,
          onboarded,
        }),
      );
    }
  });
});

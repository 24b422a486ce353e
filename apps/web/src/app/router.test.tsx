import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { QueryClient } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { paths, type PathKey } from '@/config/paths';
import { sessionStore } from '@/lib/auth';
import type * as AuthModule from '@/lib/auth';
import { contracts, LEGAL_PAGES } from '@lumina/contracts';
import { setupApiServer } from '@/testing/api-server';
import { answer, answerError } from '@/testing/fake-api';
import commonEn from '../../public/locales/en/common.json';
import { AppProvider } from './provider';
import { routes } from './router';

// The SuperTokens SDK and its prebuilt UI are exercised by the Playwright tests; here they are stubbed.
vi.mock('@/lib/auth', async (importOriginal) => ({
  ...(await importOriginal<typeof AuthModule>()),
  loadSuperTokens: async () => ({}),
}));
vi.mock('@/features/auth/components/session-guard', () => ({
  default: ({ children }: { children: ReactNode }) => children,
}));
vi.mock('@/app/routes/auth', async () => {
  const { useLocation } = await import('react-router');
  return {
    default: function AuthStub() {
      const location = useLocation();
      return <p data-testid="auth-stub">{`${location.pathname}${location.search}`}</p>;
    },
  };
});

const { server, i18n } = setupApiServer();

beforeAll(async () => {
  server.answer(contracts.publicConfig, {
    analytics: null,
    referrals: { reward_credits: 100, welcome_credits: 50, monthly_cap: 20, settle_days: 14 },
  });
  // The legal pages show the operator's Markdown (GET /api/legal/{page}); examples are public.
  server.on(contracts.legalDocument, (req) => {
    const page = LEGAL_PAGES.find((known) => known === req.params.page);
    if (!page) return answerError(404, 'NOT_FOUND', 'No such page');
    return answer(contracts.legalDocument, {
      page,
      markdown: `# ${commonEn.pages[page].title}\n\nThe text.`,
      is_default: false,
    });
  });
  server.answer(contracts.listExamples, { items: [], next_cursor: null });
  server.answer(contracts.exampleCategories, { categories: [] });
});
afterEach(() => {
  cleanup();
  sessionStore.setState({ status: 'unknown', userId: null });
});

function renderAt(path: string) {
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <AppProvider i18n={i18n} queryClient={queryClient}>
      <RouterProvider router={router} />
    </AppProvider>,
  );
}

const publicPages = ['terms', 'privacy', 'examples', 'products', 'referrals'] as const satisfies PathKey[];
const protectedPages = [
  'generate',
  'studio',
  'gallery',
  'credits',
  'training',
  'models',
  'onboarding',
  'account',
  'myProducts',
] as const satisfies PathKey[];

describe('app routes', () => {
  it('renders the header: wordmark, main navigation, theme toggle and sign-in link (no credit badge signed out)', async () => {
    sessionStore.setState({ status: 'signedOut', userId: null });
    renderAt(paths.home);
    const header = await screen.findByRole('banner');
    expect(within(header).getByText(commonEn.app.name)).toBeTruthy();
    const nav = within(header).getByRole('navigation', { name: commonEn.nav.primary });
    for (const label of [
      'generate',
      'studio',
      'gallery',
      'examples',
      'training',
      'models',
      'products',
    ] as const) {
      expect(within(nav).getByRole('link', { name: commonEn.nav[label] }).getAttribute('href')).toBe(
        paths[label],
      );
    }
    // Signed out: no balance to show, so no credit badge (features/credits/components/credit-balance.test.tsx).
    expect(within(header).queryByTestId('credit-badge')).toBeNull();
    expect(within(header).getByTestId('theme-toggle')).toBeTruthy();
    expect(within(header).getByRole('link', { name: commonEn.header.signIn }).getAttribute('href')).toBe(
      paths.auth,
    );
  });

  it('renders the landing page with its title from the translation file', async () => {
    renderAt(paths.home);
    const heading = await screen.findByRole('heading', { level: 1 });
    expect(heading.textContent).toBe(commonEn.pages.home.title);
    await waitFor(() =>
      expect(document.title).toBe(`${commonEn.pages.home.documentTitle} · ${commonEn.app.name}`),
    );
  });

  it.each(publicPages)('renders the public %s page without a session', async (key) => {
    sessionStore.setState({ status: 'signedOut', userId: null });
    renderAt(paths[key]);
    // The first public page of the run loads its lazy route (and the legal pages' markdown) for the
    // first time: on a busy machine that alone outlasts findBy's 1 s default.
    const heading = await screen.findByRole('heading', { level: 1 }, { timeout: 10_000 });
    expect(heading.textContent).toBe(commonEn.pages[key].title);
  });

  it.each(protectedPages)('sends a signed-out visitor of %s to /auth, set to return there', async (key) => {
    sessionStore.setState({ status: 'signedOut', userId: null });
    renderAt(`${paths[key]}?tab=1`);
    const stub = await screen.findByTestId('auth-stub');
    expect(stub.textContent).toBe(`/auth?redirectToPath=${encodeURIComponent(`${paths[key]}?tab=1`)}`);
  });

  it.each(['examples' as const, ...protectedPages])(
    'renders the %s page shell with its title and description',
    async (key) => {
      sessionStore.setState({ status: 'signedIn', userId: 'user-1' });
      renderAt(paths[key]);
      const heading = await screen.findByRole('heading', { level: 1 });
      expect(heading.textContent).toBe(commonEn.pages[key].title);
      expect(screen.getByText(commonEn.pages[key].description)).toBeTruthy();
      // The title is set in an effect after the heading renders.
      await waitFor(() => expect(document.title).toBe(`${commonEn.pages[key].title} · ${commonEn.app.name}`));
    },
  );

  it('renders the not-found page for an unknown path', async () => {
    renderAt('/no/such/page');
    const heading = await screen.findByRole('heading', { level: 1 });
    expect(heading.textContent).toBe(commonEn.pages.notFound.title);
  });
});

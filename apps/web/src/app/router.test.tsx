import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cleanup, render, screen, within } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { QueryClient } from '@tanstack/react-query';
import type { i18n as I18n } from 'i18next';
import { paths, type PathKey } from '@/config/paths';
import { createI18n } from '@/lib/i18n';
import { startLocalServer, type LocalServer } from '@/testing/local-server';
import commonEn from '../../public/locales/en/common.json';
import { AppProvider } from './provider';
import { routes } from './router';

let server: LocalServer;
let i18n: I18n;

beforeAll(async () => {
  server = await startLocalServer();
  i18n = await createI18n({ loadPath: `${server.url}/locales/{{lng}}/{{ns}}.json` });
});
afterAll(() => server.close());
afterEach(cleanup);

function renderAt(path: string) {
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <AppProvider i18n={i18n} queryClient={queryClient}>
      <RouterProvider router={router} />
    </AppProvider>,
  );
}

const placeholderPages = Object.keys(paths).filter((key) => key !== 'home') as Exclude<PathKey, 'home'>[];

describe('app routes', () => {
  it('renders the header: wordmark, main navigation, credit badge, theme toggle and sign-in link', async () => {
    renderAt(paths.home);
    const header = await screen.findByRole('banner');
    expect(within(header).getByText(commonEn.app.name)).toBeTruthy();
    const nav = within(header).getByRole('navigation', { name: commonEn.nav.primary });
    for (const label of ['generate', 'studio', 'gallery', 'training'] as const) {
      expect(within(nav).getByRole('link', { name: commonEn.nav[label] }).getAttribute('href')).toBe(
        paths[label],
      );
    }
    expect(within(header).getByTestId('credit-badge').getAttribute('href')).toBe(paths.credits);
    expect(within(header).getByTestId('theme-toggle')).toBeTruthy();
    expect(within(header).getByRole('link', { name: commonEn.header.signIn }).getAttribute('href')).toBe(
      paths.auth,
    );
  });

  it('renders the landing page with its title from the translation file', async () => {
    renderAt(paths.home);
    const heading = await screen.findByRole('heading', { level: 1 });
    expect(heading.textContent).toBe(commonEn.pages.home.title);
    expect(document.title).toBe(`${commonEn.pages.home.documentTitle} · ${commonEn.app.name}`);
  });

  it.each(placeholderPages)('renders the %s page shell with its title and description', async (key) => {
    renderAt(paths[key]);
    const heading = await screen.findByRole('heading', { level: 1 });
    expect(heading.textContent).toBe(commonEn.pages[key].title);
    expect(screen.getByText(commonEn.pages[key].description)).toBeTruthy();
    expect(document.title).toBe(`${commonEn.pages[key].title} · ${commonEn.app.name}`);
  });

  it('renders the not-found page for an unknown path', async () => {
    renderAt('/no/such/page');
    const heading = await screen.findByRole('heading', { level: 1 });
    expect(heading.textContent).toBe(commonEn.pages.notFound.title);
  });
});

import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { contracts, type CreditHistoryEntry, type CreditPackageView } from '@lumina/contracts';
import { renderWithApp } from '@/testing/app-harness';
import { setupApiServer } from '@/testing/api-server';
import { answer, answerError } from '@/testing/fake-api';
import { CreditHistory } from './credit-history';
import { CreditPackages } from './credit-packages';
import { ManageBillingButton } from './manage-billing-button';

const { server, i18n } = setupApiServer();
afterEach(cleanup);

const pkg = (overrides: Partial<CreditPackageView>): CreditPackageView => ({
  id: 'starter',
  name: 'Starter',
  credits: 100,
  price_cents: 500,
  currency: 'usd',
  stripe_price_id: null,
  badge: null,
  credits_per_unit: 20,
  ...overrides,
});

const entry = (n: number): CreditHistoryEntry => ({
  id: `entry-${n}`,
  amount: n % 2 ? -1 : 100,
  reason: n % 2 ? 'spend' : 'purchase',
  reference: `ref-${n}`,
  created_at: new Date(Date.UTC(2026, 0, 1, 12, n)).toISOString(),
  balance_after: 1000 - n,
  job: null,
  payment: null,
});

describe('credit packages', () => {
  it('shows price, credits, credits per unit and the badge, and Buy goes to the checkout URL', async () => {
    server.on(contracts.creditPackages, () =>
      answer(contracts.creditPackages, {
        packages: [
          pkg({}),
          pkg({
            id: 'pro',
            name: 'Pro',
            credits: 1200,
            price_cents: 4900,
            badge: 'best value',
            credits_per_unit: 24.49,
          }),
        ],
      }),
    );
    server.answer(contracts.purchaseCredits, {
      url: '/credits/dev-checkout?session_id=dev_1',
      session_id: 'dev_1',
    });
    const redirects: string[] = [];
    renderWithApp(<CreditPackages redirect={(url) => redirects.push(url)} />, { i18n });
    const cards = await screen.findAllByTestId('credit-package');
    expect(cards).toHaveLength(2);
    const pro = cards[1]!;
    expect(within(pro).getByTestId('package-price').textContent).toBe('$49.00');
    expect(within(pro).getByText('1,200 credits')).toBeTruthy();
    expect(within(pro).getByText('24.5 credits per USD')).toBeTruthy();
    expect(within(pro).getByText('Best value')).toBeTruthy();
    fireEvent.click(within(pro).getByRole('button', { name: 'Buy Pro for $49.00' }));
    await waitFor(() => expect(redirects).toEqual(['/credits/dev-checkout?session_id=dev_1']));
    const purchase = server.requests.find((r) => r.url === '/api/credits/purchase');
    expect(JSON.parse(purchase!.body)).toEqual({ package_id: 'pro' });
    // Every Buy stays disabled while the browser leaves for the checkout.
    for (const button of screen.getAllByRole('button'))
      expect((button as HTMLButtonElement).disabled).toBe(true);
  });
});

describe('credit history', () => {
  it('loads the next page with the cursor on "Load more" until there is none', async () => {
    server.on(contracts.creditHistory, (req) =>
      req.query.get('cursor')
        ? answer(contracts.creditHistory, { items: [entry(3)], next_cursor: null })
        : answer(contracts.creditHistory, { items: [entry(1), entry(2)], next_cursor: 'c2' }),
    );
    renderWithApp(<CreditHistory />, { i18n });
    await waitFor(() => expect(screen.getAllByTestId('history-row')).toHaveLength(2));
    const first = screen.getAllByTestId('history-row')[0]!;
    expect(within(first).getByText('-1')).toBeTruthy();
    expect(within(first).getByText('Generation')).toBeTruthy();
    expect(within(first).getByText('999')).toBeTruthy();
    expect(within(screen.getAllByTestId('history-row')[1]!).getByText('+100')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Load more' }));
    await waitFor(() => expect(screen.getAllByTestId('history-row')).toHaveLength(3));
    expect(screen.queryByRole('button', { name: 'Load more' })).toBeNull();
    const urls = server.requests.filter((r) => r.url.startsWith('/api/credits/history')).map((r) => r.url);
    expect(urls).toEqual(['/api/credits/history?limit=20', '/api/credits/history?cursor=c2&limit=20']);
  });
});

describe('credit history descriptions', () => {
  it('names the tool, model, prompt start and result of a job, and the package of a purchase', async () => {
    server.on(contracts.creditHistory, () =>
      answer(contracts.creditHistory, {
        items: [
          {
            ...entry(1),
            reason: 'product_holding',
            reference: 'job:0b6c1f3e-8f49-4a5e-9b1a-3f3c2b1a0d9e',
            job: {
              id: '0b6c1f3e-8f49-4a5e-9b1a-3f3c2b1a0d9e',
              kind: 'product_holding',
              model: 'local-product',
              model_name: 'Lumina Product',
              prompt_excerpt: 'A person holding a bottle…',
              status: 'succeeded',
              result: {
                type: 'image',
                id: '6c8a4c3e-1b55-4bd4-8a59-1fb6a2cc2f10',
                url: '/files/result.png',
                thumbnail_url: '/files/result.webp',
              },
            },
          },
          {
            ...entry(2),
            reference: '5b3f7a40-3c1d-4e2f-9f3c-7b2e1d0c9a8b',
            payment: { id: '5b3f7a40-3c1d-4e2f-9f3c-7b2e1d0c9a8b', package_name: 'Creator', status: 'paid' },
          },
        ],
        next_cursor: null,
      }),
    );
    renderWithApp(<CreditHistory />, { i18n });
    await waitFor(() => expect(screen.getAllByTestId('history-row')).toHaveLength(2));
    const [job, purchase] = screen.getAllByTestId('history-row');
    expect(within(job!).getByText('Product photo')).toBeTruthy();
    expect(within(job!).getByText('Product photo · Lumina Product')).toBeTruthy();
    expect(within(job!).getByText('“A person holding a bottle…”')).toBeTruthy();
    const link = within(job!).getByRole('link', { name: /View the result of this Product photo job/ });
    expect(link.getAttribute('href')).toBe('/files/result.png');
    expect(job!.textContent).not.toMatch(/job:|product_holding/);
    expect(within(purchase!).getByText('Creator package')).toBeTruthy();
  });
});

describe('manage billing', () => {
  it('says why instead of offering the button when the server has no portal for the person', async () => {
    server.answer(contracts.billingPortalStatus, {
      available: false,
      reason: 'There is no billing account yet.',
    });
    renderWithApp(<ManageBillingButton />, { i18n });
    expect((await screen.findByTestId('billing-unavailable')).textContent).toBe(
      'There is no billing account yet.',
    );
    expect(screen.queryByTestId('manage-billing')).toBeNull();
  });

  it("opens the portal URL, or is disabled with the server's note when the portal refuses", async () => {
    server.answer(contracts.billingPortalStatus, { available: true, reason: null });
    server.answer(contracts.customerPortal, { url: 'https://billing.example/session' });
    const redirects: string[] = [];
    renderWithApp(<ManageBillingButton redirect={(url) => redirects.push(url)} />, { i18n });
    await waitFor(() =>
      expect((screen.getByTestId('manage-billing') as HTMLButtonElement).disabled).toBe(false),
    );
    fireEvent.click(screen.getByTestId('manage-billing'));
    await waitFor(() => expect(redirects).toEqual(['https://billing.example/session']));
    cleanup();

    server.on(contracts.customerPortal, () => answerError(409, 'CONFLICT', 'No billing account yet'));
    renderWithApp(<ManageBillingButton />, { i18n });
    await waitFor(() =>
      expect((screen.getByTestId('manage-billing') as HTMLButtonElement).disabled).toBe(false),
    );
    fireEvent.click(screen.getByTestId('manage-billing'));
    expect(await screen.findByText('No billing account yet')).toBeTruthy();
    expect((screen.getByTestId('manage-billing') as HTMLButtonElement).disabled).toBe(true);
  });
});

import { afterEach, describe, expect, it } from 'vitest';
import type { ReactNode } from 'react';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { createMemoryRouter, RouterProvider, useLocation } from 'react-router';
import { contracts, type ProductView, type PurchaseView } from '@lumina/contracts';
import { AppProvider } from '@/app/provider';
import { newQueryClient } from '@/testing/app-harness';
import { setupApiServer } from '@/testing/api-server';
import { answer, answerError } from '@/testing/fake-api';
import { sessionStore } from '@/lib/auth';
import { productsQueryKey } from '../api/get-products';
import { ProductsView } from './products-view';

const { server, i18n } = setupApiServer();
afterEach(() => {
  cleanup();
  sessionStore.setState({ status: 'unknown', userId: null });
});

const product = (overrides: Partial<ProductView> = {}): ProductView => ({
  id: 'headshots',
  kind: 'photo_shoot',
  name: 'Professional headshots',
  description: 'Forty studio headshots from your photos.',
  cover_urls: ['/products/headshots-1.webp', '/products/headshots-2.webp', '/products/headshots-3.webp'],
  price: { amount_cents: 2900, currency: 'usd' },
  price_credits: 600,
  badge: 'most popular',
  credits: null,
  images: 40,
  min_photos: 5,
  max_photos: 30,
  review: { average: 4.5, count: 12 },
  ...overrides,
});

const creditPack = product({
  id: 'pro',
  kind: 'credits',
  name: 'Pro',
  description: '1,200 credits.',
  cover_urls: [],
  price: { amount_cents: 4900, currency: 'usd' },
  price_credits: null,
  badge: null,
  credits: 1200,
  images: null,
  min_photos: null,
  max_photos: null,
  review: { average: 0, count: 0 },
});

const purchase = (overrides: Partial<PurchaseView> = {}): PurchaseView => ({
  id: '00000000-0000-4000-8000-0000000000a1',
  product_id: 'headshots',
  product_name: 'Professional headshots',
  kind: 'photo_shoot',
  status: 'waiting_for_photos',
  paid_with: 'credits',
  amount_cents: null,
  currency: null,
  credits_spent: 600,
  payment_id: null,
  set_id: null,
  model_id: null,
  progress: { stage: 'photos', percent: null, images_done: 0, images_total: 40 },
  error: null,
  images: [],
  credits_added: null,
  created_at: '2026-01-01T12:00:00.000Z',
  updated_at: '2026-01-01T12:00:00.000Z',
  ...overrides,
});

/** Where the page sent the browser: the test reads the path it landed on. */
function Landed() {
  const location = useLocation();
  return <p data-testid="landed">{`${location.pathname}${location.search}`}</p>;
}

function renderProducts(ui: ReactNode) {
  const router = createMemoryRouter(
    [
      { path: '/products', element: ui },
      { path: '*', element: <Landed /> },
    ],
    { initialEntries: ['/products'] },
  );
  const queryClient = newQueryClient();
  const view = render(
    <AppProvider i18n={i18n} queryClient={queryClient}>
      <RouterProvider router={router} />
    </AppProvider>,
  );
  return { ...view, queryClient };
}

const buys = () => server.requests.filter((r) => r.method === 'POST' && r.url.startsWith('/api/products/'));

describe('products page', () => {
  it('lists every product with its price, credits, samples, badge, review summary and what it delivers', async () => {
    server.answer(contracts.products, [product(), creditPack]);
    renderProducts(<ProductsView />);
    const cards = await screen.findAllByTestId('product-card');
    expect(cards.map((c) => c.getAttribute('data-product-id'))).toEqual(['headshots', 'pro']);

    const [shoot, pack] = cards as [HTMLElement, HTMLElement];
    expect(within(shoot).getByRole('heading', { name: 'Professional headshots' })).toBeTruthy();
    expect(within(shoot).getByTestId('product-price').textContent).toBe('$29.00');
    expect(within(shoot).getByTestId('product-credits').textContent).toBe('or 600 credits');
    expect(within(shoot).getByTestId('product-delivers').textContent).toBe('40 images');
    expect(within(shoot).getByText('Most popular')).toBeTruthy();
    expect(within(shoot).getByText('4.5 out of 5 from 12 reviews')).toBeTruthy();
    expect(
      within(shoot)
        .getAllByRole('img')
        .map((img) => img.getAttribute('src')),
    ).toEqual(['/products/headshots-1.webp', '/products/headshots-2.webp', '/products/headshots-3.webp']);
    expect(within(shoot).getByRole('button', { name: 'Buy Professional headshots for $29.00' })).toBeTruthy();
    expect(
      within(shoot).getByRole('button', { name: 'Buy Professional headshots for 600 credits' }),
    ).toBeTruthy();

    // A credit package: money only, and what it adds.
    expect(within(pack).getByTestId('product-price').textContent).toBe('$49.00');
    expect(within(pack).getByTestId('product-delivers').textContent).toBe('1,200 credits');
    expect(within(pack).getByText('No reviews yet')).toBeTruthy();
    expect(within(pack).getAllByRole('button')).toHaveLength(1);
  });

  it("shows the server's message when the list fails, and no products", async () => {
    server.on(contracts.products, () => answerError(503, 'SERVICE_UNAVAILABLE', 'The catalogue is resting.'));
    renderProducts(<ProductsView />);
    expect((await screen.findByTestId('products-error')).textContent).toContain('The catalogue is resting.');
    expect(screen.queryAllByTestId('product-card')).toHaveLength(0);
  });

  it('says "Failed to fetch products." when the list fails without a message, and empties a list shown before', async () => {
    let fail = false;
    server.on(contracts.products, (_req, res) => {
      if (!fail) return answer(contracts.products, [product()]);
      res.destroy(); // no answer at all: nothing the server said to show
    });
    const { queryClient } = renderProducts(<ProductsView />);
    expect(await screen.findAllByTestId('product-card')).toHaveLength(1);

    fail = true;
    await queryClient.refetchQueries({ queryKey: productsQueryKey });
    expect((await screen.findByTestId('products-error')).textContent).toContain('Failed to fetch products.');
    expect(screen.queryAllByTestId('product-card')).toHaveLength(0);

    fail = false;
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findAllByTestId('product-card')).toHaveLength(1);
    expect(screen.queryByTestId('products-error')).toBeNull();
  });

  it('sends a signed-out visitor to sign in first, coming back to the products, and buys nothing', async () => {
    sessionStore.setState({ status: 'signedOut', userId: null });
    server.answer(contracts.products, [product()]);
    renderProducts(<ProductsView />);
    fireEvent.click(await screen.findByRole('button', { name: 'Buy Professional headshots for $29.00' }));
    expect((await screen.findByTestId('landed')).textContent).toBe('/auth?redirectToPath=%2Fproducts');
    expect(buys()).toHaveLength(0);
  });

  it('buys with money at the price shown and goes to the checkout', async () => {
    sessionStore.setState({ status: 'signedIn', userId: 'u-1' });
    server.answer(contracts.products, [product()]);
    server.answer(contracts.buyProduct, {
      purchase: null,
      checkout: { url: '/credits/dev-checkout?session_id=dev_9', session_id: 'dev_9' },
      balance: null,
    });
    const redirects: string[] = [];
    renderProducts(<ProductsView redirect={(url) => redirects.push(url)} />);
    fireEvent.click(await screen.findByRole('button', { name: 'Buy Professional headshots for $29.00' }));
    await waitFor(() => expect(redirects).toEqual(['/credits/dev-checkout?session_id=dev_9']));
    expect(buys().map((r) => [r.url, JSON.parse(r.body) as unknown])).toEqual([
      [
        '/api/products/headshots/buy',
        { pay_with: 'money', expected_price: { amount_cents: 2900, currency: 'usd' } },
      ],
    ]);
    // While the browser leaves for the checkout, nothing can be bought twice.
    for (const button of screen.getAllByRole('button'))
      expect((button as HTMLButtonElement).disabled).toBe(true);
  });

  it('buys a photo shoot with credits and goes to My products, where it waits for photos', async () => {
    sessionStore.setState({ status: 'signedIn', userId: 'u-1' });
    server.answer(contracts.products, [product()]);
    server.answer(contracts.buyProduct, { purchase: purchase(), checkout: null, balance: 400 });
    renderProducts(<ProductsView />);
    fireEvent.click(
      await screen.findByRole('button', { name: 'Buy Professional headshots for 600 credits' }),
    );
    expect((await screen.findByTestId('landed')).textContent).toBe('/my-products');
    expect(JSON.parse(buys()[0]!.body)).toEqual({ pay_with: 'credits', expected_credits: 600 });
  });

  it("shows the server's detail and the new price on a 409, and the next attempt asks for the new price", async () => {
    sessionStore.setState({ status: 'signedIn', userId: 'u-1' });
    let price = 2900;
    server.on(contracts.products, () =>
      answer(contracts.products, [product({ price: { amount_cents: price, currency: 'usd' } })]),
    );
    server.on(contracts.buyProduct, (req) => {
      const body = JSON.parse(req.body) as { expected_price?: { amount_cents: number } };
      if (body.expected_price?.amount_cents !== price)
        return answerError(409, 'CONFLICT', 'The price of Professional headshots is now $34.00.');
      return answer(contracts.buyProduct, {
        purchase: null,
        checkout: { url: '/checkout/ok', session_id: 'cs_1' },
        balance: null,
      });
    });
    const redirects: string[] = [];
    renderProducts(<ProductsView redirect={(url) => redirects.push(url)} />);
    const card = await screen.findByTestId('product-card');
    price = 3400; // changed on the server after the page loaded
    fireEvent.click(within(card).getByRole('button', { name: 'Buy Professional headshots for $29.00' }));

    const error = await within(card).findByTestId('product-error');
    expect(error.textContent).toContain('The price of Professional headshots is now $34.00.');
    expect(error.textContent).toContain('buy again');
    await waitFor(() => expect(within(card).getByTestId('product-price').textContent).toBe('$34.00'));
    expect(redirects).toEqual([]);

    fireEvent.click(within(card).getByRole('button', { name: 'Buy Professional headshots for $34.00' }));
    await waitFor(() => expect(redirects).toEqual(['/checkout/ok']));
    expect(
      buys().map((r) => (JSON.parse(r.body) as { expected_price: { amount_cents: number } }).expected_price),
    ).toEqual([
      { amount_cents: 2900, currency: 'usd' },
      { amount_cents: 3400, currency: 'usd' },
    ]);
  });
});

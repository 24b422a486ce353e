import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { contracts, type PurchaseView, type TrainingSetView } from '@lumina/contracts';
import { renderWithApp } from '@/testing/app-harness';
import { setupApiServer } from '@/testing/api-server';
import { answer, answerError } from '@/testing/fake-api';
import { setupNodeFormData } from '@/testing/node-form-data';
import { setAccessTokenGetter } from '@/lib/api-client';
import { MY_PRODUCTS_POLL_MS } from '../api/get-my-products';
import { CheckoutNotice } from './checkout-notice';
import { MyProductsView } from './my-products-view';

const { server, i18n } = setupApiServer();
setupNodeFormData();
afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.restoreAllMocks();
  setAccessTokenGetter(() => null);
});

const ID = '00000000-0000-4000-8000-0000000000a1';
const SET_A = '00000000-0000-4000-8000-0000000000b1';
const SET_B = '00000000-0000-4000-8000-0000000000b2';

const purchase = (overrides: Partial<PurchaseView> = {}): PurchaseView => ({
  id: ID,
  product_id: 'headshots',
  product_name: 'Professional headshots',
  kind: 'photo_shoot',
  status: 'waiting_for_photos',
  paid_with: 'money',
  amount_cents: 2900,
  currency: 'usd',
  credits_spent: null,
  payment_id: '00000000-0000-4000-8000-0000000000c1',
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

const photoSet = (id: string, photos: number): TrainingSetView => ({
  id,
  photos: Array.from({ length: photos }, (_, i) => ({
    id: `00000000-0000-4000-8000-${String(i + 1).padStart(12, '0')}`,
    filename: `me-${i}.jpg`,
    url: `/files/${id}/${i}.jpg`,
    thumbnail_url: `/files/${id}/${i}.webp`,
    width: 1024,
    height: 1024,
    hints: [],
  })),
  created_at: '2026-01-01T11:00:00.000Z',
  updated_at: '2026-01-01T11:00:00.000Z',
});

const images = (n: number) =>
  Array.from({ length: n }, (_, i) => ({
    id: `00000000-0000-4000-8000-${String(i + 100).padStart(12, '0')}`,
    url: `/files/shoot/${i}.png`,
    thumbnail_url: `/files/shoot/${i}.webp`,
  }));

const listCalls = () => server.requests.filter((r) => r.method === 'GET' && r.url === '/api/myproducts');

describe('my products', () => {
  it('says where each purchase is in words, with its progress and the reason a failed one was refunded', async () => {
    server.answer(contracts.myProducts, [
      purchase({
        id: '00000000-0000-4000-8000-0000000000a2',
        status: 'training',
        progress: { stage: 'training', percent: 42, images_done: 0, images_total: 40 },
      }),
      purchase({
        id: '00000000-0000-4000-8000-0000000000a3',
        status: 'generating',
        progress: { stage: 'generating', percent: null, images_done: 12, images_total: 40 },
      }),
      purchase({
        id: '00000000-0000-4000-8000-0000000000a4',
        status: 'refunded',
        error: 'Training failed: the photos showed no face. Your $29.00 was refunded.',
      }),
      purchase({
        id: '00000000-0000-4000-8000-0000000000a5',
        kind: 'credits',
        product_id: 'pro',
        product_name: 'Pro',
        status: 'ready',
        credits_added: 1200,
        amount_cents: 4900,
      }),
    ]);
    renderWithApp(<MyProductsView />, { i18n });
    const cards = await screen.findAllByTestId('purchase');
    const status = cards.map((c) => within(c).getByTestId('purchase-status').textContent);
    expect(status).toEqual(['Training your model', 'Making your images', 'Failed and refunded', 'Ready']);

    expect(within(cards[0]!).getByTestId('purchase-progress-text').textContent).toBe('Training 42% done');
    expect(within(cards[0]!).getByRole('progressbar').getAttribute('aria-valuenow')).toBe('42');
    expect(within(cards[1]!).getByTestId('purchase-progress-text').textContent).toBe('12 of 40 images made');
    expect(within(cards[1]!).getByRole('progressbar').getAttribute('aria-valuenow')).toBe('30');
    expect(within(cards[2]!).getByRole('alert').textContent).toBe(
      'Training failed: the photos showed no face. Your $29.00 was refunded.',
    );
    expect(within(cards[2]!).queryByRole('progressbar')).toBeNull();
    expect(within(cards[3]!).getByTestId('credits-added').textContent).toBe(
      '1,200 credits added to your balance',
    );
    expect(within(cards[3]!).getByText(/\$49\.00/)).toBeTruthy();
  });

  it('refreshes while a purchase is active and stops once it is ready', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    let answers = [
      purchase({
        status: 'generating',
        progress: { stage: 'generating', percent: null, images_done: 1, images_total: 2 },
      }),
      purchase({
        status: 'ready',
        progress: { stage: 'done', percent: 100, images_done: 2, images_total: 2 },
        images: images(2),
      }),
    ];
    server.on(contracts.myProducts, () =>
      answer(contracts.myProducts, [answers.length > 1 ? answers.shift()! : answers[0]!]),
    );
    renderWithApp(<MyProductsView />, { i18n });
    expect((await screen.findByTestId('purchase-progress-text')).textContent).toBe('1 of 2 images made');

    await vi.advanceTimersByTimeAsync(MY_PRODUCTS_POLL_MS + 100);
    await waitFor(() => expect(screen.getByTestId('purchase-status').textContent).toBe('Ready'));
    expect(screen.getAllByRole('button', { name: /Open image/ })).toHaveLength(2);
    const calls = listCalls().length;
    expect(calls).toBe(2);
    await vi.advanceTimersByTimeAsync(MY_PRODUCTS_POLL_MS * 3);
    expect(listCalls()).toHaveLength(calls);
    answers = [];
  });

  it('lets a waiting shoot pick one of the pending photo sets and start; training begins', async () => {
    let current = purchase();
    server.on(contracts.myProducts, () => answer(contracts.myProducts, [current]));
    server.answer(contracts.pendingImageSets, { sets: [photoSet(SET_A, 12), photoSet(SET_B, 6)] });
    server.on(contracts.attachPhotos, (req) => {
      if (req.params.id !== ID) return answerError(404, 'NOT_FOUND', 'No such purchase');
      const { set_id } = JSON.parse(req.body) as { set_id: string };
      current = purchase({
        status: 'training',
        set_id,
        progress: { stage: 'training', percent: 0, images_done: 0, images_total: 40 },
      });
      return answer(contracts.attachPhotos, current);
    });
    renderWithApp(<MyProductsView />, { i18n });
    const attach = await screen.findByTestId('attach-photos');
    const sets = await within(attach).findAllByTestId('pending-set');
    expect(sets.map((s) => s.textContent)).toEqual([
      expect.stringMatching(/^12 photos, uploaded/),
      expect.stringMatching(/^6 photos, uploaded/),
    ]);
    const start = within(attach).getByRole('button', {
      name: 'Start with these photos',
    }) as HTMLButtonElement;
    expect(start.disabled).toBe(true); // two sets: the person chooses
    fireEvent.click(within(sets[1]!).getByRole('radio'));
    fireEvent.click(start);

    await waitFor(() =>
      expect(screen.getByTestId('purchase-status').textContent).toBe('Training your model'),
    );
    await waitFor(() => expect(screen.queryByTestId('attach-photos')).toBeNull());
    const posts = server.requests.filter((r) => r.method === 'POST');
    expect(posts.map((r) => [r.url, JSON.parse(r.body) as unknown])).toEqual([
      [`/api/myproducts/${ID}/photos`, { set_id: SET_B }],
    ]);
  });

  it('uploads new photos as a set, lists what was refused, and shows why attaching was refused', async () => {
    server.answer(contracts.myProducts, [purchase()]);
    let sets: TrainingSetView[] = [];
    server.on(contracts.pendingImageSets, () => answer(contracts.pendingImageSets, { sets }));
    server.on(contracts.uploadOnboardingImages, () => {
      sets = [photoSet(SET_A, 5)];
      return answer(contracts.uploadOnboardingImages, {
        ...photoSet(SET_A, 5),
        refused: [{ filename: 'tiny.jpg', reason: 'Too small: 200×200.' }],
      });
    });
    server.on(contracts.attachPhotos, () =>
      answerError(400, 'VALIDATION_FAILED', 'This shoot needs at least 8 photos.'),
    );
    renderWithApp(<MyProductsView />, { i18n });
    const attach = await screen.findByTestId('attach-photos');
    expect(await within(attach).findByText(/no unused photo sets/)).toBeTruthy();

    const file = new File([new Uint8Array([1, 2, 3])], 'me.jpg', { type: 'image/jpeg' });
    fireEvent.change(within(attach).getByTestId('attach-files'), { target: { files: [file] } });
    expect((await within(attach).findByTestId('attach-refused')).textContent).toContain(
      'tiny.jpg: Too small: 200×200.',
    );
    const set = await within(attach).findByTestId('pending-set');
    expect((within(set).getByRole('radio') as HTMLInputElement).checked).toBe(true);

    fireEvent.click(within(attach).getByRole('button', { name: 'Start with these photos' }));
    expect((await within(attach).findByTestId('attach-error')).textContent).toBe(
      'This shoot needs at least 8 photos.',
    );
    expect(screen.getByTestId('purchase-status').textContent).toBe('Waiting for your photos');
  });

  it('shows a ready shoot larger on demand, and "Download all" saves the zip fetched with the session', async () => {
    setAccessTokenGetter(() => 'token-1');
    server.answer(contracts.myProducts, [purchase({ status: 'ready', images: images(3) })]);
    server.on(contracts.downloadPurchase, (req, res) => {
      if (req.headers.authorization !== 'Bearer token-1' || req.params.id !== ID) {
        res
          .writeHead(404, { 'content-type': 'application/json' })
          .end('{"detail":"No such purchase","code":"NOT_FOUND"}');
        return;
      }
      res.writeHead(200, { 'content-type': 'application/zip' }).end(Buffer.from('PK\x03\x04zip'));
    });
    const saved: { href: string; download: string }[] = [];
    const blobs: Blob[] = [];
    // jsdom has no object URLs: the test keeps the blob the page hands to the download.
    URL.createObjectURL = (blob: Blob) => {
      blobs.push(blob);
      return 'blob:zip-1';
    };
    URL.revokeObjectURL = () => {};
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      saved.push({ href: this.getAttribute('href') ?? '', download: this.download });
    });
    renderWithApp(<MyProductsView />, { i18n });

    fireEvent.click((await screen.findAllByRole('button', { name: /Open image/ }))[1]!);
    const dialog = await screen.findByRole('dialog', { name: 'Professional headshots, image 2 of 3' });
    expect(within(dialog).getByTestId('delivered-image-large').getAttribute('src')).toBe(
      '/files/shoot/1.png',
    );
    fireEvent.keyDown(document, { key: 'Escape' });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    fireEvent.click(screen.getByTestId('download-all'));
    await waitFor(() =>
      expect(saved).toEqual([{ href: 'blob:zip-1', download: 'professional-headshots-00000000.zip' }]),
    );
    expect(await blobs[0]!.text()).toBe('PK\x03\x04zip');
  });

  it('shows why the zip could not be downloaded', async () => {
    server.answer(contracts.myProducts, [purchase({ status: 'ready', images: images(1) })]);
    server.on(contracts.downloadPurchase, () => answerError(404, 'NOT_FOUND', 'No such purchase.'));
    renderWithApp(<MyProductsView />, { i18n });
    fireEvent.click(await screen.findByTestId('download-all'));
    expect((await screen.findByTestId('download-error')).textContent).toBe('No such purchase.');
  });

  it('points to the products when nothing was bought yet', async () => {
    server.answer(contracts.myProducts, []);
    renderWithApp(<MyProductsView />, { i18n });
    const empty = await screen.findByTestId('my-products-empty');
    expect(within(empty).getByRole('link', { name: 'See the products' }).getAttribute('href')).toBe(
      '/products',
    );
  });
});

describe('back from the checkout', () => {
  beforeEach(() => {
    server.answer(contracts.myProducts, []);
  });

  it('confirms the payment once and says it was received', async () => {
    server.on(contracts.processPayment, (req) => {
      const { session_id } = JSON.parse(req.body) as { session_id: string };
      return session_id === 'cs_1'
        ? answer(contracts.processPayment, { status: 'paid', credits_added: 0, balance: 10 })
        : answerError(404, 'NOT_FOUND', 'No such checkout.');
    });
    const { rerender } = renderWithApp(<CheckoutNotice sessionId="cs_1" />, { i18n });
    expect((await screen.findByText(/Payment received/)).getAttribute('data-testid')).toBe('checkout-notice');
    rerender(<CheckoutNotice sessionId="cs_1" />);
    await new Promise((r) => setTimeout(r, 50));
    expect(server.requests.filter((r) => r.url === '/api/process_payment')).toHaveLength(1);
  });

  it('says a pending payment is still on its way, then that it arrived', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const statuses = ['pending', 'paid'] as const;
    let n = 0;
    server.on(contracts.processPayment, () =>
      answer(contracts.processPayment, {
        status: statuses[Math.min(n++, 1)]!,
        credits_added: 0,
        balance: 10,
      }),
    );
    renderWithApp(<CheckoutNotice sessionId="cs_2" />, { i18n });
    expect((await screen.findByTestId('checkout-notice')).textContent).toMatch(
      /Confirming|still being processed/,
    );
    await screen.findByText(/still being processed/);
    await vi.advanceTimersByTimeAsync(2_100);
    expect(await screen.findByText(/Payment received/)).toBeTruthy();
  });
});

import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { createMemoryRouter, RouterProvider, useLocation } from 'react-router';
import {
  buyProductContract,
  onboardingContract,
  pendingImageSetsContract,
  productsContract,
  skipOnboardingContract,
  submitOnboardingContract,
  uploadOnboardingImagesContract,
  type OnboardingView,
  type ProductView,
  type PurchaseView,
  type TrainingSetView,
} from '@lumina/contracts';
import { AppProvider } from '@/app/provider';
import { newQueryClient } from '@/testing/app-harness';
import { setupApiServer } from '@/testing/api-server';
import { answer, answerError } from '@/testing/fake-api';
import { json } from '@/testing/local-server';
import { setupNodeFormData } from '@/testing/node-form-data';
import commonEn from '../../../../public/locales/en/common.json';
import { SET_STORAGE_KEY, STEP_STORAGE_KEY } from '../utils/wizard-steps';
import { OnboardingWizard } from './onboarding-wizard';

const { server, i18n } = setupApiServer();
setupNodeFormData();

const ob = commonEn.onboarding;
const SET_ID = '5b0c2a52-7a55-4d63-9f8e-1c2d3e4f5a6b';
const PURCHASE_ID = '7c1d3b63-8b66-4e74-8a9f-2d3e4f5a6b7c';

const noAnswers: OnboardingView = {
  use_case: null,
  country: null,
  phone: null,
  referral_source: null,
  gender: null,
  onboarded: false,
  completed_at: null,
  skipped_at: null,
};

const shoot = (overrides: Partial<ProductView> = {}): ProductView => ({
  id: 'headshots-40',
  kind: 'photo_shoot',
  name: 'Professional headshots',
  description: 'Forty studio-lit headshots of you.',
  cover_urls: ['/product-covers/a.webp', '/product-covers/b.webp'],
  price: { amount_cents: 2900, currency: 'usd' },
  price_credits: 300,
  badge: null,
  credits: null,
  images: 40,
  min_photos: 5,
  max_photos: 30,
  review: { average: 4.5, count: 2 },
  ...overrides,
});

const photoSet = (count: number, hints: string[] = []): TrainingSetView => ({
  id: SET_ID,
  photos: Array.from({ length: count }, (_, i) => ({
    id: `00000000-0000-4000-9000-${String(i + 1).padStart(12, '0')}`,
    filename: `me-${i + 1}.jpg`,
    url: `/files/me-${i + 1}.jpg`,
    thumbnail_url: `/files/me-${i + 1}.webp`,
    width: 1024,
    height: 1024,
    hints: i === 0 ? hints : [],
  })),
  created_at: '2026-01-01T12:00:00.000Z',
  updated_at: '2026-01-01T12:00:00.000Z',
});

const purchase = (): PurchaseView => ({
  id: PURCHASE_ID,
  product_id: 'headshots-40',
  product_name: 'Professional headshots',
  kind: 'photo_shoot',
  status: 'training',
  paid_with: 'credits',
  amount_cents: null,
  currency: null,
  credits_spent: 300,
  payment_id: null,
  set_id: SET_ID,
  model_id: null,
  progress: { stage: 'training', percent: null, images_done: 0, images_total: 40 },
  error: null,
  images: [],
  credits_added: null,
  created_at: '2026-01-01T12:00:00.000Z',
  updated_at: '2026-01-01T12:00:00.000Z',
});

beforeAll(() => {
  URL.createObjectURL = vi.fn(() => `blob:preview-${Math.random()}`);
  URL.revokeObjectURL = vi.fn();
});
afterAll(() => {
  Reflect.deleteProperty(URL, 'createObjectURL');
  Reflect.deleteProperty(URL, 'revokeObjectURL');
});

let stored: OnboardingView;
let pendingSets: TrainingSetView[];
let products: ProductView[];
beforeEach(() => {
  sessionStorage.clear();
  stored = noAnswers;
  pendingSets = [];
  products = [shoot()];
  server.on(onboardingContract, () => answer(onboardingContract, stored));
  server.on(pendingImageSetsContract, () => answer(pendingImageSetsContract, { sets: pendingSets }));
  server.on(productsContract, () => answer(productsContract, products));
  server.on(skipOnboardingContract, () => {
    stored = { ...stored, onboarded: true, skipped_at: '2026-01-01T12:00:00.000Z' };
    return answer(skipOnboardingContract, stored);
  });
});
afterEach(() => cleanup());

/** Where the app went: the path and query after a navigation away from /onboarding. */
function Elsewhere() {
  const location = useLocation();
  return <p data-testid="elsewhere">{`${location.pathname}${location.search}`}</p>;
}

function renderWizard(at = '/onboarding', redirect = vi.fn()) {
  const router = createMemoryRouter(
    [
      { path: '/onboarding', element: <OnboardingWizard redirect={redirect} /> },
      { path: '*', element: <Elsewhere /> },
    ],
    { initialEntries: [at] },
  );
  render(
    <AppProvider i18n={i18n} queryClient={newQueryClient()}>
      <RouterProvider router={router} />
    </AppProvider>,
  );
  return router;
}

const stepHeading = () => screen.findByTestId('onboarding-step-heading');
const select = (label: string, value: string) =>
  fireEvent.change(screen.getByLabelText(label), { target: { value } });
const sent = (method: string, path: string) =>
  server.requests.filter((r) => r.method === method && r.url.split('?')[0] === path);

/** Fills the about-you step with answers the contract accepts. */
async function fillAboutYou() {
  await screen.findByTestId('about-you-form');
  select(ob.about.useCase, 'professional_headshots');
  select(ob.about.country, 'GB');
  fireEvent.change(screen.getByLabelText(ob.about.phone), { target: { value: '+44 20 7946 0958' } });
  select(ob.about.referral, 'other');
  fireEvent.change(await screen.findByLabelText(ob.about.referralOther), {
    target: { value: 'A poster at the station' },
  });
}

describe('the onboarding wizard', () => {
  it('checks the answers before sending, each message under its field, and sends nothing', async () => {
    renderWizard();
    await screen.findByTestId('about-you-form');
    fireEvent.click(screen.getByTestId('about-you-save'));
    const useCase = screen.getByLabelText(ob.about.useCase);
    await waitFor(() => expect(useCase.getAttribute('aria-invalid')).toBe('true'));
    const error = document.getElementById(useCase.getAttribute('aria-describedby')!.split(' ').at(-1)!);
    expect(error?.textContent).toMatch(/use_case must be/);
    expect(screen.getByLabelText(ob.about.country).getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByLabelText(ob.about.referral).getAttribute('aria-invalid')).toBe('true');
    // Phone and gender are optional.
    expect(screen.getByLabelText(ob.about.phone).getAttribute('aria-invalid')).toBeNull();
    expect(sent('POST', '/api/onboarding')).toHaveLength(0);
  });

  it("shows the server's 400 detail under the fields it names, and stays on the step", async () => {
    server.on(submitOnboardingContract, () =>
      answerError(
        400,
        'VALIDATION_FAILED',
        'Invalid body: phone: This number cannot be reached; country: Lumina is not offered there yet',
      ),
    );
    renderWizard();
    await fillAboutYou();
    fireEvent.click(screen.getByTestId('about-you-save'));
    const phone = screen.getByLabelText(ob.about.phone);
    await waitFor(() => expect(phone.getAttribute('aria-invalid')).toBe('true'));
    const describedBy = phone.getAttribute('aria-describedby')!.split(' ');
    expect(describedBy.map((id) => document.getElementById(id)?.textContent)).toContain(
      'This number cannot be reached',
    );
    const country = screen.getByLabelText(ob.about.country);
    expect(country.getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByText('Lumina is not offered there yet')).toBeTruthy();
    expect(screen.getByTestId('onboarding-wizard').dataset.step).toBe('about');
  });

  it('saves the answers (free-text source, phone as typed) and moves to the photos step, focus on its heading', async () => {
    server.on(submitOnboardingContract, (req) => {
      const body = JSON.parse(req.body) as Record<string, unknown>;
      stored = {
        ...noAnswers,
        use_case: 'professional_headshots',
        country: String(body.country),
        phone: '+442079460958',
        referral_source: String(body.referral_source),
        onboarded: true,
        completed_at: '2026-01-01T12:00:00.000Z',
      };
      return answer(submitOnboardingContract, stored);
    });
    const router = renderWizard();
    await fillAboutYou();
    select(ob.about.gender, 'non_binary');
    fireEvent.click(screen.getByTestId('about-you-save'));
    await waitFor(() => expect(screen.getByTestId('onboarding-wizard').dataset.step).toBe('photos'));
    expect(JSON.parse(sent('POST', '/api/onboarding')[0]!.body)).toEqual({
      use_case: 'professional_headshots',
      country: 'GB',
      phone: '+442079460958',
      referral_source: 'A poster at the station',
      gender: 'non_binary',
    });
    const heading = await stepHeading();
    expect(heading.textContent).toBe(ob.steps.photos);
    expect(document.activeElement).toBe(heading);
    expect(router.state.location.search).toContain('step=photos');
    expect(sessionStorage.getItem(STEP_STORAGE_KEY)).toBe('photos');
  });

  it('resumes after a reload: the stored step, the stored answers, the pending photo set offered back', async () => {
    stored = {
      ...noAnswers,
      use_case: 'dating_profile',
      country: 'FR',
      referral_source: 'Heard it on the radio',
      onboarded: true,
      completed_at: '2026-01-01T12:00:00.000Z',
    };
    pendingSets = [photoSet(6, ['A little blurry: a sharper photo teaches more.'])];
    sessionStorage.setItem(STEP_STORAGE_KEY, 'photos');
    renderWizard();
    expect((await stepHeading()).textContent).toBe(ob.steps.photos);
    expect(await screen.findByTestId('onboarding-photos-resumed')).toBeTruthy();
    expect(screen.getAllByTestId('set-photo')).toHaveLength(6);
    expect(screen.getByTestId('photo-hint').textContent).toBe(
      'A little blurry: a sharper photo teaches more.',
    );
    expect(screen.getByTestId('onboarding-photo-count').textContent).toBe('6 photos ready');

    // Back to the first step: the stored answers fill the form.
    fireEvent.click(screen.getByRole('button', { name: ob.back }));
    await screen.findByTestId('about-you-form');
    expect((screen.getByLabelText(ob.about.useCase) as HTMLSelectElement).value).toBe('dating_profile');
    expect((screen.getByLabelText(ob.about.country) as HTMLSelectElement).value).toBe('FR');
    expect((screen.getByLabelText(ob.about.referral) as HTMLSelectElement).value).toBe('other');
    expect((screen.getByLabelText(ob.about.referralOther) as HTMLInputElement).value).toBe(
      'Heard it on the radio',
    );
  });

  it('uploads photos: previews first, then what the server kept (with its hints) and refused (with why)', async () => {
    sessionStorage.setItem(STEP_STORAGE_KEY, 'photos');
    server.on(uploadOnboardingImagesContract, () =>
      answer(uploadOnboardingImagesContract, {
        ...photoSet(5, ['Face partly hidden.']),
        refused: [{ filename: 'tiny.jpg', reason: 'Too small: 300×300; photos need at least 512 px.' }],
      }),
    );
    renderWizard();
    await screen.findByTestId('training-drop');
    const files = Array.from(
      { length: 6 },
      (_, i) =>
        new File([new Uint8Array(100 + i)], i === 5 ? 'tiny.jpg' : `me-${i}.jpg`, { type: 'image/jpeg' }),
    );
    fireEvent.change(screen.getByTestId('training-files'), { target: { files } });
    expect(screen.getAllByTestId('picked-photo')).toHaveLength(6);
    fireEvent.click(screen.getByTestId('training-upload'));
    expect(await screen.findByTestId('training-refused')).toBeTruthy();
    expect(within(screen.getByTestId('training-refused')).getByTestId('refused-file').textContent).toContain(
      'tiny.jpg',
    );
    expect(screen.getAllByTestId('set-photo')).toHaveLength(5);
    expect(screen.getByTestId('photo-hint').textContent).toBe('Face partly hidden.');
    expect(sessionStorage.getItem(SET_STORAGE_KEY)).toBe(SET_ID);
    const upload = sent('POST', '/api/onboarding/upload_images')[0]!;
    expect(upload.headers['content-type']).toMatch(/^multipart\/form-data/);
  });

  it('skips from any step: POST /api/onboarding/skip, then the page first opened', async () => {
    sessionStorage.setItem(STEP_STORAGE_KEY, 'product');
    renderWizard('/onboarding?next=%2Fgallery%3Ftab%3Dsaved');
    await screen.findByTestId('onboarding-product');
    fireEvent.click(screen.getByTestId('onboarding-skip'));
    expect((await screen.findByTestId('elsewhere')).textContent).toBe('/gallery?tab=saved');
    expect(sent('POST', '/api/onboarding/skip')).toHaveLength(1);
    expect(sessionStorage.getItem(STEP_STORAGE_KEY)).toBeNull();
  });

  it('tells a person who already onboarded (a later sign-in lands here) that they are done, with the way on', async () => {
    stored = { ...noAnswers, onboarded: true, skipped_at: '2026-01-01T12:00:00.000Z' };
    renderWizard('/onboarding?next=%2Fmodels');
    const note = await screen.findByTestId('onboarding-already-done');
    expect(note.textContent).toContain(ob.alreadyDone);
    expect(within(note).getByRole('link', { name: ob.goOn }).getAttribute('href')).toBe('/models');
  });

  it('says nothing of the sort to a person who has not onboarded yet', async () => {
    renderWizard();
    await screen.findByTestId('about-you-form');
    expect(screen.queryByTestId('onboarding-already-done')).toBeNull();
  });

  it('skips to Generate when no page was asked for, and never to another site', async () => {
    renderWizard('/onboarding?next=%2F%2Fevil.example%2F');
    await screen.findByTestId('about-you-form');
    fireEvent.click(screen.getByTestId('onboarding-skip'));
    expect((await screen.findByTestId('elsewhere')).textContent).toBe('/generate');
  });

  it('shows the onboarding product: the first product, its prices, samples and review summary', async () => {
    products = [shoot(), shoot({ id: 'other', name: 'Second product' })];
    renderWizard('/onboarding?step=product');
    const card = await screen.findByTestId('onboarding-product');
    expect(card.dataset.product).toBe('headshots-40');
    expect(screen.getByTestId('onboarding-product-price').textContent).toBe(
      '$29.00 or 300 credits · 40 images',
    );
    expect(screen.getByTestId('onboarding-product-reviews').textContent).toBe(
      'Rated 4.5 out of 5 by 2 buyers',
    );
    expect(screen.getAllByRole('img', { name: /Sample \d of Professional headshots/ })).toHaveLength(2);
    expect(screen.queryByText('Second product')).toBeNull();
  });

  it("says 'Failed to fetch products.' and offers nothing when the product list cannot be loaded", async () => {
    server.on(productsContract, (_req, res) => void res.destroy());
    renderWizard('/onboarding?step=product');
    expect((await screen.findByTestId('onboarding-products-error')).textContent).toBe(
      'Failed to fetch products.',
    );
    expect(screen.queryByTestId('onboarding-product')).toBeNull();
    expect((screen.getByTestId('onboarding-continue') as HTMLButtonElement).disabled).toBe(true);
  });

  it("shows the server's own message when it answered one", async () => {
    server.on(productsContract, (_req, res) => {
      json(res, 503, {
        detail: 'The shop is closed for stock-taking.',
        code: 'SERVICE_UNAVAILABLE',
        requestId: 'r-1',
      });
    });
    renderWizard('/onboarding?step=product');
    expect((await screen.findByTestId('onboarding-products-error')).textContent).toBe(
      'The shop is closed for stock-taking.',
    );
    expect(screen.queryByTestId('onboarding-product')).toBeNull();
  });
});

describe('the checkout step', () => {
  it('pays with money: the shown price, the photo set and the return addresses, then off to the checkout', async () => {
    pendingSets = [photoSet(6)];
    sessionStorage.setItem(SET_STORAGE_KEY, SET_ID);
    const assign = vi.fn();
    const origin = window.location.origin;
    server.on(buyProductContract, () =>
      answer(buyProductContract, {
        purchase: null,
        checkout: { url: '/credits/dev-checkout?session_id=cs_1', session_id: 'cs_1' },
        balance: null,
      }),
    );
    renderWizard('/onboarding?step=checkout', assign);
    await screen.findByTestId('onboarding-checkout');
    // The photo count comes from its own query, which may answer after the products.
    await waitFor(() =>
      expect(screen.getByTestId('onboarding-checkout-photos').textContent).toBe(
        'Trains on your 6 uploaded photos.',
      ),
    );
    fireEvent.click(screen.getByTestId('onboarding-buy'));
    await waitFor(() => expect(assign).toHaveBeenCalledWith('/credits/dev-checkout?session_id=cs_1'));
    // A cancelled checkout comes back to this step with the same photos.
    expect(sessionStorage.getItem(SET_STORAGE_KEY)).toBe(SET_ID);
    const buy = sent('POST', '/api/products/headshots-40/buy')[0]!;
    expect(JSON.parse(buy.body)).toEqual({
      pay_with: 'money',
      set_id: SET_ID,
      expected_price: { amount_cents: 2900, currency: 'usd' },
      success_url: `${origin}/my-products?session_id={CHECKOUT_SESSION_ID}`,
      cancel_url: `${origin}/onboarding?step=checkout`,
    });
  });

  it('pays with credits and goes to My products', async () => {
    server.on(buyProductContract, () =>
      answer(buyProductContract, { purchase: purchase(), checkout: null, balance: 200 }, 201),
    );
    renderWizard('/onboarding?step=checkout');
    fireEvent.click(await screen.findByLabelText('Credits: 300'));
    fireEvent.click(screen.getByTestId('onboarding-buy'));
    expect((await screen.findByTestId('elsewhere')).textContent).toBe('/my-products');
    expect(JSON.parse(sent('POST', '/api/products/headshots-40/buy')[0]!.body)).toEqual({
      pay_with: 'credits',
      expected_credits: 300,
    });
  });

  it('a price changed since the page loaded: shows the new price and asks again, then buys at it', async () => {
    let buys = 0;
    server.on(buyProductContract, (req) => {
      buys += 1;
      const body = JSON.parse(req.body) as { expected_credits?: number };
      if (body.expected_credits !== 350) {
        products = [shoot({ price: null, price_credits: 350 })];
        return answerError(409, 'CONFLICT', 'The price of this product has changed.');
      }
      return answer(buyProductContract, { purchase: purchase(), checkout: null, balance: 150 }, 201);
    });
    products = [shoot({ price: null })];
    renderWizard('/onboarding?step=checkout');
    expect((await screen.findByTestId('onboarding-checkout-price')).textContent).toBe('300 credits');
    fireEvent.click(screen.getByTestId('onboarding-buy'));
    const changed = await screen.findByTestId('onboarding-price-changed');
    expect(changed.textContent).toBe(
      'The price changed while you were here. It is now 350 credits. Buy at the new price?',
    );
    expect(screen.getByTestId('onboarding-checkout-price').textContent).toBe('350 credits');
    expect(screen.queryByTestId('elsewhere')).toBeNull();
    fireEvent.click(screen.getByTestId('onboarding-buy'));
    expect((await screen.findByTestId('elsewhere')).textContent).toBe('/my-products');
    expect(buys).toBe(2);
  });
});

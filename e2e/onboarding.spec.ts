import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { unzipSync } from 'fflate';
import { header, newEmail, signInWithCode } from './support/auth';
import { loaded } from './support/images';
import { en as t } from './support/locale';
import { trainingPhotos } from './support/training-photos';

test.use({ colorScheme: 'light' });

const ob = t.onboarding;

test('a new person onboards: answers, photos with hints, the onboarding product, a reload on the way, the development checkout; the shoot trains, generates and is downloaded as one zip', async ({
  page,
  request,
}, testInfo) => {
  test.setTimeout(420_000);
  const photos = await trainingPhotos(testInfo.outputPath('photos'), 6);
  const email = newEmail('onboarding');

  // An app page first: the new person is sent to onboarding, set to come back to it.
  await page.goto('/auth');
  await signInWithCode(page, request, email);
  await expect(page).toHaveURL(/\/onboarding$/);
  await page.goto('/gallery');
  await expect(page).toHaveURL(/\/onboarding\?next=%2Fgallery$/);
  await expect(header(page).getByTestId('user-email')).toHaveText(email);

  // 1. About you: a refused answer is shown under its field; then the answers are saved.
  const form = page.getByTestId('about-you-form');
  await form.getByLabel(ob.about.useCase).selectOption('professional_headshots');
  await form.getByLabel(ob.about.country).selectOption({ label: 'United Kingdom' });
  await form.getByLabel(ob.about.phone).fill('12345');
  await form.getByLabel(ob.about.referral).selectOption('other');
  await form.getByLabel(ob.about.referralOther).fill('A poster at the station');
  await form.getByRole('button', { name: ob.about.save }).click();
  await expect(form.getByLabel(ob.about.phone)).toHaveAttribute('aria-invalid', 'true');
  await form.getByLabel(ob.about.phone).fill('+44 20 7946 0958');
  await form.getByRole('button', { name: ob.about.save }).click();

  // 2. Photos: focus moves to the step's heading; previews, then what the server kept.
  const heading = page.getByTestId('onboarding-step-heading');
  await expect(heading).toHaveText(ob.steps.photos);
  await expect(heading).toBeFocused();
  await page.getByTestId('training-files').setInputFiles(photos);
  await expect(page.getByTestId('picked-photo')).toHaveCount(6);
  await page.getByTestId('training-upload').click();
  await expect(page.getByTestId('set-photo')).toHaveCount(6, { timeout: 30_000 });
  await expect(page.getByTestId('onboarding-photo-count')).toHaveText('6 photos ready');

  // A reload keeps the step and offers the uploaded set back.
  await page.reload();
  await expect(heading).toHaveText(ob.steps.photos);
  await expect(page.getByTestId('onboarding-photos-resumed')).toBeVisible();
  await expect(page.getByTestId('set-photo')).toHaveCount(6);
  await page.getByTestId('onboarding-continue').click();

  // 3. The onboarding product: the first of GET /api/products, with its price and sample images.
  const products = (await (await request.get('/api/products')).json()) as {
    id: string;
    name: string;
    images: number | null;
  }[];
  const first = products[0]!;
  const offer = page.getByTestId('onboarding-product');
  await expect(offer).toHaveAttribute('data-product', first.id);
  await expect(offer.getByRole('heading', { name: first.name })).toBeVisible();
  await expect(page.getByTestId('onboarding-product-price')).not.toBeEmpty();
  await page.getByTestId('onboarding-continue').click();

  // 4. Checkout with money, through the development checkout, back to My products.
  await expect(heading).toHaveText(ob.steps.checkout);
  await expect(page.getByTestId('onboarding-checkout-photos')).toHaveText(
    'Trains on your 6 uploaded photos.',
  );
  const money = page.getByRole('radio', { name: /^Card:/ });
  if ((await money.count()) > 0) await money.check();
  await page.getByTestId('onboarding-buy').click();
  await expect(page).toHaveURL(/\/dev-checkout\?session_id=/);
  await page.getByTestId('dev-checkout-pay').click();
  await expect(page).toHaveURL(/\/my-products\?session_id=/);
  const purchase = page.getByTestId('purchase').first();
  await expect(purchase).toContainText(first.name);

  // 5. The shoot runs on the local trainer and engine: training, then the images, live on the page.
  const status = purchase.getByTestId('purchase-status');
  await expect(status).toHaveText(
    new RegExp(`${t.products.status.training}|${t.products.status.generating}|${t.products.status.ready}`),
  );
  await expect(status).toHaveText(t.products.status.ready, { timeout: 300_000 });
  const delivered = purchase.getByTestId('delivered-images').getByRole('listitem');
  await expect(delivered).toHaveCount(first.images!);
  await delivered.first().scrollIntoViewIfNeeded();
  await loaded(delivered.first().locator('img'));

  // 6. Download all: one zip holding every delivered image.
  const downloadStarted = page.waitForEvent('download');
  await purchase.getByTestId('download-all').click();
  const download = await downloadStarted;
  expect(download.suggestedFilename()).toMatch(/\.zip$/);
  const zip = unzipSync(new Uint8Array(readFileSync(await download.path())));
  const entries = Object.keys(zip).filter((name) => !name.endsWith('/'));
  expect(entries).toHaveLength(first.images!);
  for (const name of entries) expect(name).toMatch(/\.(png|jpe?g|webp)$/);

  // Onboarded now: app pages open without a detour.
  await page.goto('/gallery');
  await expect(page).toHaveURL(/\/gallery$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(t.pages.gallery!.title);
});

test('at phone width every step fits the screen (no sideways scroll), light and dark', async ({
  page,
  request,
}) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/auth');
  await signInWithCode(page, request, newEmail('onboarding-phone'));
  await expect(page).toHaveURL(/\/onboarding$/);
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    for (const step of ['about', 'photos', 'product', 'checkout'] as const) {
      await page.goto(`/onboarding?step=${step}`);
      await expect(page.getByTestId('onboarding-step-heading')).toHaveText(ob.steps[step]);
      await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
      const overflow = await page.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      );
      expect(overflow, `${step} (${scheme}) scrolls sideways`).toBeLessThanOrEqual(0);
    }
  }
});

import { expect, test, type Page } from '@playwright/test';
import { header, newEmail, signInWithCode } from './support/auth';
import { en as t } from './support/locale';
import { shot } from './support/page';

test.use({ colorScheme: 'light' });

async function signInAt(page: Page, request: Parameters<typeof signInWithCode>[1], path: string) {
  await page.goto(path);
  await expect(page).toHaveURL(/\/auth\?redirectToPath=/);
  await signInWithCode(page, request, newEmail('generate'));
  await expect(page).toHaveURL(new RegExp(`${path}$`));
}

test('generate with the local engine, watch it finish, save it, find it under Saved after a reload', async ({
  page,
  request,
}) => {
  test.setTimeout(90_000);
  await signInAt(page, request, '/generate');

  const balance = header(page).getByTestId('credit-balance');
  await expect(balance).toBeVisible();
  const before = Number((await balance.textContent())?.replace(/\D/g, ''));
  expect(before).toBeGreaterThan(0);

  const form = page.getByTestId('generate-form');
  await expect(form.getByTestId('local-engine-note')).toHaveText(t.generate.localEngineNote);
  await form
    .getByLabel(t.generate.form.prompt, { exact: true })
    .fill('a violet lighthouse on a cliff at dusk, mist over the sea');
  const submit = form.getByTestId('generate-submit');
  await expect(submit).toHaveText(/Generate · \d+ credits?/);
  const cost = Number((await submit.textContent())?.match(/· (\d+)/)?.[1]);
  await shot(page, 'generate-light-form');
  await submit.click();

  const job = page.getByTestId('job-card').first();
  await expect(job).toBeVisible();
  await expect(job.getByTestId('job-status')).toHaveText(t.generate.status.succeeded!, { timeout: 30_000 });
  await expect(job.getByRole('progressbar')).toHaveAttribute('aria-valuenow', '100');
  await expect(balance).toHaveText(String(before - cost));

  const result = job.getByTestId('image-card').first();
  await expect(result).toBeVisible();
  const img = result.locator('img');
  await expect
    .poll(() => img.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth > 0))
    .toBe(true);
  const imageId = await result.getAttribute('data-image-id');
  await shot(page, 'generate-light');

  await result.hover();
  await result.getByTestId('action-save').click();
  await expect(result.getByTestId('action-save')).toHaveAttribute('aria-pressed', 'true');

  // The lightbox shows the recipe.
  await result.locator('button').first().click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByTestId('recipe-prompt')).toContainText('violet lighthouse');
  await shot(page, 'generate-lightbox');
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();

  await page.getByTestId('theme-toggle').click();
  await expect(page.locator('html')).toHaveClass(/\bdark\b/);
  await shot(page, 'generate-dark');

  await page.goto('/gallery');
  await page.getByRole('tab', { name: t.gallery.tabs.saved }).click();
  await expect(page).toHaveURL(/\/gallery\?tab=saved$/);
  const saved = page.locator(`[data-testid="image-card"][data-image-id="${imageId}"]`);
  await expect(saved).toBeVisible();
  await expect(saved).toHaveAttribute('data-saved', 'true');
  await shot(page, 'gallery-dark');

  await page.reload();
  await expect(page.getByRole('tab', { name: t.gallery.tabs.saved })).toHaveAttribute(
    'aria-selected',
    'true',
  );
  await expect(saved).toBeVisible();

  await page.getByTestId('theme-toggle').click();
  await expect(page.locator('html')).not.toHaveClass(/\bdark\b/);
  await page.getByRole('tab', { name: t.gallery.tabs.all }).click();
  await expect(page.getByTestId('image-card').first()).toBeVisible();
  await shot(page, 'gallery-light');

  await page.setViewportSize({ width: 390, height: 844 });
  await shot(page, 'gallery-phone');
  await page.goto('/generate');
  await expect(page.getByTestId('job-card').first()).toBeVisible();
  await shot(page, 'generate-phone');
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow, 'no sideways scrolling at phone width').toBeLessThanOrEqual(0);
});

import { expect, test, type Locator, type Page } from '@playwright/test';
import { header, newEmail, signInWithCode } from './support/auth';
import { en as t } from './support/locale';
import { shot, digits } from './support/page';
import { decoded, loaded } from './support/images';

const fixture = (name: string) => `e2e/fixtures/${name}`;

test.describe.configure({ mode: 'serial' });
test.use({ colorScheme: 'light' });

let page: Page;
let balance: Locator;

test.beforeAll(async ({ browser, request }) => {
  page = await browser.newPage({ colorScheme: 'light' });
  await page.goto('/studio');
  await expect(page).toHaveURL(/\/auth\?redirectToPath=/);
  await signInWithCode(page, request, newEmail('studio'));
  await expect(page).toHaveURL(/\/studio$/);
  balance = header(page).getByTestId('credit-balance');
  await expect(balance).toHaveText(/\d/);
});

test.afterAll(async () => {
  await page.close();
});

/** Opens a tool's tab; the URL names it so it can be linked. */
async function openTool(tool: string) {
  await page.getByRole('tab', { name: t.studio.tools[tool as keyof typeof t.studio.tools].name }).click();
  await expect(page).toHaveURL(new RegExp(`[?&]tool=${tool}`));
  return page.getByTestId(`tool-form-${tool}`);
}

/** Presses Start and checks the cost on the button is what the header balance loses. */
async function startAndFinish(form: Locator, costLabel: RegExp) {
  const submit = form.getByTestId('tool-submit');
  await expect(submit).toBeEnabled();
  await expect(submit).toHaveText(costLabel);
  const cost = Number((await submit.textContent())?.match(/· (\d+)/)?.[1]);
  const before = digits(await balance.textContent());
  await submit.click();
  const run = page.getByTestId('tool-run');
  await expect(run.getByTestId('run-status')).toHaveText(t.studio.run.status.succeeded!, { timeout: 60_000 });
  await expect(run.getByRole('progressbar')).toHaveAttribute('aria-valuenow', '100');
  await expect(balance).toHaveText(String(before - cost));
  return run;
}

test('edit: a picked file, edited with the local engine, compared on a before/after slider', async () => {
  test.setTimeout(90_000);
  const form = await openTool('edit');
  await form.getByTestId('input-file-edit').setInputFiles(fixture('scene.jpg'));
  await loaded(form.getByTestId('input-preview-edit'));
  await expect(form.getByTestId('input-meta-edit')).toContainText('512 × 384 px');
  await form.getByLabel(t.studio.form.prompt).fill('warmer golden evening light, vintage');
  await expect(form.getByTestId('local-engine-note')).toBeVisible();
  await shot(page, 'studio-edit-form');

  const run = await startAndFinish(form, /^Edit · \d+ credits?$/);
  const slider = run.getByRole('slider', { name: t.studio.result.compare });
  await expect(slider).toHaveAttribute('aria-valuenow', '50');
  expect(await loaded(run.getByTestId('compare-after'))).toEqual({ width: 512, height: 384 });
  await loaded(run.getByTestId('compare-before'));
  await slider.focus();
  await page.keyboard.press('ArrowLeft');
  await expect(slider).toHaveAttribute('aria-valuenow', '49');
  await page.keyboard.press('End');
  await expect(slider).toHaveAttribute('aria-valuenow', '100');
  // Dragging on the picture moves the divider too.
  const box = (await run.getByTestId('before-after').boundingBox())!;
  await page.mouse.click(box.x + box.width * 0.25, box.y + box.height / 2);
  await expect.poll(async () => Number(await slider.getAttribute('aria-valuenow'))).toBeLessThan(30);
  await run.getByTestId('result-save').click();
  await expect(run.getByTestId('result-save')).toHaveAttribute('aria-pressed', 'true');
  await shot(page, 'studio-edit-result');
});

test('copy style: a new picture in the style of the reference', async () => {
  test.setTimeout(90_000);
  const form = await openTool('copy_style');
  await form.getByTestId('input-file-copy_style').setInputFiles(fixture('scene.jpg'));
  await form.getByLabel(t.studio.form.description).fill('a quiet harbour with fishing boats at dawn');
  const run = await startAndFinish(form, /^Copy style · \d+ credits?$/);
  const size = await loaded(run.getByTestId('result-image'));
  expect(size.width).toBeGreaterThan(0);
  await shot(page, 'studio-copy-style');
});

test('product: the person and the product composited at the chosen aspect ratio', async () => {
  test.setTimeout(90_000);
  const form = await openTool('product_holding');
  await form.getByTestId('input-file-person').setInputFiles(fixture('person.jpg'));
  await expect(form.getByTestId('tool-why')).toHaveText(/product/i);
  await form.getByTestId('input-file-product').setInputFiles(fixture('product.png'));
  await form.getByRole('radio', { name: '16:9' }).check({ force: true });
  const run = await startAndFinish(form, /^Create · \d+ credits?$/);
  const { width, height } = await loaded(run.getByTestId('result-image'));
  expect(Math.abs(width / height - 16 / 9)).toBeLessThan(0.02);
  await expect(run.getByTestId('result-size')).toHaveText(`${width} × ${height} px · 16:9`);
  await shot(page, 'studio-product');
});

test('upscale 2×: twice the pixels, compared with the original; then the result goes on to Animate', async () => {
  test.setTimeout(90_000);
  const form = await openTool('upscale');
  await form.getByTestId('input-file-upscale').setInputFiles(fixture('scene.jpg'));
  await expect(form.getByTestId('upscale-target')).toHaveText('512 × 384 px becomes 1024 × 768 px');
  await form.getByRole('radio', { name: '2×' }).check({ force: true });
  const run = await startAndFinish(form, /^Upscale · \d+ credits?$/);
  await expect(run.getByTestId('result-size')).toHaveText('512 × 384 px → 1024 × 768 px (2×)');
  expect(await loaded(run.getByTestId('compare-after'))).toEqual({ width: 1024, height: 768 });
  await expect(run.getByRole('slider')).toHaveAttribute('aria-valuenow', '50');
  await shot(page, 'studio-upscale');

  await run.getByTestId('use-as-animate').click();
  await expect(page).toHaveURL(/[?&]tool=animate/);
  await expect(page.getByTestId('input-meta-animate')).toContainText('1024 × 768 px');
});

test('animate: an MP4 that plays inline with its poster, listed with the other videos', async () => {
  test.setTimeout(120_000);
  const form = page.getByTestId('tool-form-animate');
  await form.getByLabel(t.studio.form.motion).fill('slow zoom towards the lighthouse');
  await form.getByRole('radio', { name: '5 seconds' }).check({ force: true });
  const run = await startAndFinish(form, /^Animate · \d+ credits$/);
  const video = run.getByTestId('result-video');
  await expect(video).toBeVisible();
  await expect(video).toHaveAttribute('poster', /.+/);
  await decoded(video, 'Chromium decodes the H.264 video');
  const jobId = await run.getByTestId('run-progress').getAttribute('data-job-id');
  const card = page.locator(`[data-testid="video-card"][data-video-id="${jobId}"]`);
  await expect(card).toHaveAttribute('data-status', 'succeeded');
  await expect(card.locator('video')).toHaveAttribute('poster', /.+/);
  await shot(page, 'studio-animate');

  await page.setViewportSize({ width: 390, height: 844 });
  await shot(page, 'studio-animate-phone');
  for (const tool of Object.keys(t.studio.tools)) {
    await openTool(tool);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow, `no sideways scrolling at phone width (${tool})`).toBeLessThanOrEqual(0);
  }
});

test('the gallery marks tool outputs, explains them, and opens one in a Studio tool', async () => {
  await page.goto('/gallery');
  // The 2× upscale from above: its card carries the tool's name.
  const card = page
    .getByTestId('image-card')
    .filter({ has: page.getByTestId('tool-badge').filter({ hasText: t.studio.tools.upscale!.name }) })
    .first();
  await expect(card).toBeVisible();
  await card.locator('button').first().click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toContainText('2×');
  await dialog.getByTestId('open-in-studio').getByRole('button', { name: t.studio.tools.edit!.name }).click();
  await expect(page).toHaveURL(/\/studio\?tool=edit$/);
  await expect(page.getByTestId('input-meta-edit')).toContainText('1024 × 768 px');
});

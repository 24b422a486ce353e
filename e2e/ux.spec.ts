import { expect, test, type Locator, type Page } from '@playwright/test';
import { header, newEmail, signInWithCode } from './support/auth';
import { en as t } from './support/locale';

/**
 * Issue 15, part A, as a person sees it: results where the eye is (desktop 1440×900 and phone width),
 * at their own proportions; only usable models; bad files caught at the drop zone; every Studio run
 * kept on the server; videos saved, reused and listed in the Gallery; a deleted image leaves no empty
 * card; and a session revoked elsewhere takes the balance off the screen.
 */

const DESKTOP = { width: 1440, height: 900 };
const PHONE = { width: 390, height: 844 };
/** The operator named in playwright.config.ts (ADMIN_EMAILS of the e2e server). */
const OPERATOR = 'operator@example.com';

const fixture = (name: string) => `e2e/fixtures/${name}`;
const shot = (page: Page, name: string) =>
  page.screenshot({ path: `test-results/screenshots/ux-${name}.png` });

test.describe.configure({ mode: 'serial' });
test.use({ colorScheme: 'light' });

let page: Page;
let email: string;

test.beforeAll(async ({ browser, request }) => {
  page = await browser.newPage({ colorScheme: 'light', viewport: DESKTOP });
  email = newEmail('ux');
  await page.goto('/generate');
  await expect(page).toHaveURL(/\/auth\?redirectToPath=/);
  await signInWithCode(page, request, email);
  await expect(page).toHaveURL(/\/generate$/);
  await expect(header(page).getByTestId('credit-balance')).toHaveText(/\d/);
});

test.afterAll(async () => {
  await page.close();
});

/** Width / height of an element as laid out. */
async function ratioOf(locator: Locator) {
  const box = await locator.boundingBox();
  expect(box, 'the element is laid out').not.toBeNull();
  return { ratio: box!.width / box!.height, width: box!.width, height: box!.height };
}

/** Starts a generation with one image at `ratio` and returns its job card once it is done. */
async function generate(prompt: string, ratio: string) {
  const form = page.getByTestId('generate-form');
  await form.getByLabel(t.generate.form.prompt, { exact: true }).fill(prompt);
  await form.locator('label', { hasText: ratio }).click();
  await form.locator('label', { hasText: /^1$/ }).click();
  const submit = form.getByTestId('generate-submit');
  // Seen from the top of the page, without scrolling for it.
  await page.evaluate(() => window.scrollTo(0, 0));
  await expect(submit).toBeInViewport({ ratio: 1 });
  await submit.click();
  // The new job is in view together with the button that started it.
  const card = page.getByTestId('job-card').first();
  await expect(card.getByTestId('job-progress')).toBeInViewport({ ratio: 1 });
  await expect(submit).toBeInViewport({ ratio: 1 });
  await expect(card).toHaveAttribute('data-status', 'succeeded', { timeout: 30_000 });
  return card;
}

test('Generate at 1440×900: only usable models, progress and results in view, 16:9 and 9:16 uncropped', async () => {
  test.setTimeout(120_000);
  // A customer sees no operator language and no model they cannot use.
  await expect(page.getByTestId('generate-form')).toBeVisible();
  await expect(page.getByText(/key configured|provider key|FAL_KEY/i)).toHaveCount(0);
  await expect(page.getByTestId('operator-setup-hint')).toHaveCount(0);
  await expect(page.getByTestId('generate-form').locator('input[name="model"][disabled]')).toHaveCount(0);

  const wide = await generate('a violet lighthouse on a cliff at dusk', '16:9');
  const wideCard = wide.getByTestId('image-card').first();
  await expect(wideCard).toBeInViewport();
  const w = await ratioOf(wideCard);
  expect(w.ratio).toBeCloseTo(16 / 9, 1);
  expect(w.width, 'a single result is shown large').toBeGreaterThan(400);
  const wImg = await ratioOf(wideCard.getByTestId('image-card-img'));
  expect(wImg.ratio).toBeCloseTo(16 / 9, 1);
  await shot(page, 'generate-16x9-desktop');

  const tall = await generate('a tall paper lantern in a narrow alley', '9:16');
  const tallCard = tall.getByTestId('image-card').first();
  await expect(tallCard).toBeInViewport();
  const h = await ratioOf(tallCard);
  expect(h.ratio).toBeCloseTo(9 / 16, 1);
  expect(h.height, 'tall enough to see, short enough to fit the screen').toBeGreaterThan(300);
  expect(h.height).toBeLessThanOrEqual(DESKTOP.height * 0.7 + 2);
  // The natural size of what is shown is the image's own proportion (no square crop anywhere).
  await expect
    .poll(() =>
      tallCard
        .getByTestId('image-card-img')
        .evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth / img.naturalHeight),
    )
    .toBeCloseTo(9 / 16, 1);
  await shot(page, 'generate-9x16-desktop');
});

test('Generate at phone width: the button stays on screen and the new job comes into view', async () => {
  test.setTimeout(90_000);
  await page.setViewportSize(PHONE);
  await page.goto('/generate');
  await expect(page.getByTestId('job-card').first()).toBeVisible();
  await page.evaluate(() => window.scrollTo(0, 0));
  await generate('a small red boat on a calm lake', '1:1');
  await shot(page, 'generate-phone');
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow, 'no sideways scrolling at phone width').toBeLessThanOrEqual(0);
  await page.setViewportSize(DESKTOP);
});

test('a deleted image leaves no empty card on Generate or in the Gallery', async () => {
  await page.goto('/generate');
  const card = page.getByTestId('job-card').first();
  await expect(card).toHaveAttribute('data-status', 'succeeded');
  const jobId = await card.getAttribute('data-job-id');
  const image = card.getByTestId('image-card').first();
  const imageId = await image.getAttribute('data-image-id');
  await image.hover();
  await image.getByTestId('action-delete').click();
  await page.getByRole('dialog').getByRole('button', { name: t.images.delete.confirm, exact: true }).click();
  await expect(page.locator(`[data-testid="job-card"][data-job-id="${jobId}"]`)).toHaveCount(0);
  // Still gone after a reload (the server's view of the job agrees).
  await page.reload();
  await expect(page.getByTestId('job-card').first()).toBeVisible();
  await expect(page.locator(`[data-testid="job-card"][data-job-id="${jobId}"]`)).toHaveCount(0);
  await page.goto('/gallery');
  await expect(page.getByTestId('image-card').first()).toBeVisible();
  await expect(page.locator(`[data-image-id="${imageId}"]`)).toHaveCount(0);
  // The gallery shows each image at its own proportions too.
  for (const card of await page.getByTestId('image-card').all()) {
    const ratio = (await ratioOf(card)).ratio;
    expect(
      [16 / 9, 9 / 16, 1].some((r) => Math.abs(r - ratio) < 0.05),
      `ratio ${ratio}`,
    ).toBe(true);
  }
});

test('a text file renamed .png is refused where it is dropped, and the reason goes with the file', async () => {
  await page.goto('/studio?tool=edit');
  const form = page.getByTestId('tool-form-edit');
  const slot = form.getByTestId('image-input-edit');
  const dropped = await page.evaluateHandle(() => {
    const transfer = new DataTransfer();
    transfer.items.add(new File(['these are my notes, not a picture'], 'notes.png', { type: 'image/png' }));
    return transfer;
  });
  await form.getByTestId('input-drop-edit').dispatchEvent('drop', { dataTransfer: dropped });
  const problem = form.getByTestId('input-problem-edit');
  await expect(problem).toContainText('named like a PNG picture');
  await expect(problem).toBeInViewport();
  await expect(slot).toHaveAttribute('data-filled', 'false');
  await expect(form.getByTestId('tool-submit')).toBeDisabled();
  await shot(page, 'studio-bad-drop');

  // A real picture replaces it: the reason goes.
  await form.getByTestId('input-file-edit').setInputFiles(fixture('scene.jpg'));
  await expect(slot).toHaveAttribute('data-filled', 'true');
  await expect(problem).toHaveCount(0);
});

test('Studio at 1440×900: progress in view with the button; the run is kept on the server and runs again', async () => {
  test.setTimeout(120_000);
  const form = page.getByTestId('tool-form-edit');
  await form.getByLabel(t.studio.form.prompt).fill('warmer golden evening light');
  const submit = form.getByTestId('tool-submit');
  await page.evaluate(() => window.scrollTo(0, 0));
  await expect(submit).toBeInViewport({ ratio: 1 });
  await submit.click();
  const progress = page.getByTestId('run-progress');
  await expect(progress).toBeInViewport({ ratio: 1 });
  await expect(submit).toBeInViewport({ ratio: 1 });
  await expect(page.getByTestId('run-status')).toHaveText(t.studio.run.status.succeeded!, {
    timeout: 60_000,
  });
  // The before/after keeps the picture's own proportions (512 × 384).
  expect((await ratioOf(page.getByTestId('before-after'))).ratio).toBeCloseTo(4 / 3, 1);

  // A reload keeps the result and lists the run with its input and output.
  await page.reload();
  await expect(page.getByTestId('run-status')).toHaveText(t.studio.run.status.succeeded!);
  const history = page.getByTestId('run-history');
  const runs = history.getByTestId('history-run');
  await expect(runs).toHaveCount(1);
  await expect(runs.first()).toContainText('warmer golden evening light');
  await expect(runs.first().getByTestId('history-outputs').locator('img')).toHaveCount(1);
  await shot(page, 'studio-history');

  await runs.first().getByTestId('history-run-again').click();
  await expect(runs).toHaveCount(2);
  await expect(runs.first()).toHaveAttribute('data-status', 'succeeded', { timeout: 60_000 });
  await expect(page.getByTestId('image-input-edit')).toHaveAttribute('data-filled', 'true');
});

test('Studio at phone width: the button stays on screen and progress comes into view', async () => {
  test.setTimeout(90_000);
  await page.setViewportSize(PHONE);
  await page.goto('/studio?tool=upscale');
  const form = page.getByTestId('tool-form-upscale');
  await form.getByTestId('input-file-upscale').setInputFiles(fixture('scene.jpg'));
  await expect(form.getByTestId('image-input-upscale')).toHaveAttribute('data-filled', 'true');
  await page.evaluate(() => window.scrollTo(0, 0));
  const submit = form.getByTestId('tool-submit');
  await expect(submit).toBeInViewport({ ratio: 1 });
  await submit.click();
  await expect(page.getByTestId('run-progress')).toBeInViewport({ ratio: 1 });
  await expect(submit).toBeInViewport({ ratio: 1 });
  await expect(page.getByTestId('run-status')).toHaveText(t.studio.run.status.succeeded!, {
    timeout: 60_000,
  });
  await shot(page, 'studio-phone');
  await page.setViewportSize(DESKTOP);
});

test('Animate: Save, "Use as input", and the Gallery’s Videos view (poster, length, play, download, delete)', async () => {
  test.setTimeout(150_000);
  await page.goto('/studio?tool=animate');
  const form = page.getByTestId('tool-form-animate');
  await form.getByTestId('input-file-animate').setInputFiles(fixture('scene.jpg'));
  await form.getByLabel(t.studio.form.motion).fill('slow zoom towards the horizon');
  await form.getByTestId('tool-submit').click();
  const run = page.getByTestId('tool-run');
  await expect(run.getByTestId('run-status')).toHaveText(t.studio.run.status.succeeded!, {
    timeout: 120_000,
  });
  const save = run.getByTestId('video-save');
  await save.click();
  await expect(save).toHaveAttribute('aria-pressed', 'true');
  const videoId = await run.getByTestId('run-progress').getAttribute('data-job-id');

  await run.getByTestId('video-use-as-edit').click();
  await expect(page.getByRole('tab', { name: t.studio.tools.edit!.name })).toHaveAttribute(
    'aria-selected',
    'true',
  );
  await expect(page.getByTestId('image-input-edit')).toHaveAttribute('data-filled', 'true');

  await page.goto('/gallery');
  await page.getByRole('tab', { name: t.gallery.tabs.videos }).click();
  await expect(page).toHaveURL(/tab=videos/);
  const card = page.locator(`[data-testid="video-card"][data-video-id="${videoId}"]`);
  const video = card.locator('video');
  await expect(video).toHaveAttribute('poster', /.+/);
  await expect(card).toContainText(/5 s/);
  await expect(card.getByTestId('video-save')).toHaveAttribute('aria-pressed', 'true');
  await expect(card.getByTestId('video-download')).toHaveAttribute('download', /\.mp4$/);
  // Plays inline.
  await video.evaluate((el: HTMLVideoElement) => {
    el.muted = true;
    return el.play();
  });
  await expect.poll(() => video.evaluate((el: HTMLVideoElement) => el.currentTime)).toBeGreaterThan(0);
  // The MP4 that just played carries content credentials: animated from its image, intact.
  const credentials = card.getByTestId('video-credentials');
  await credentials.locator('summary').click();
  await expect(credentials.getByTestId('credentials-made')).toContainText('Made with AI by');
  await expect(credentials.getByTestId('credentials-edited')).toHaveText('Animated from 1 image');
  await expect(credentials.getByTestId('credentials-validity')).toHaveText(t.gallery.credentials.valid);
  await shot(page, 'gallery-videos');

  await card.getByTestId('video-delete').click();
  await card.getByTestId('video-delete-confirm').click();
  await expect(card).toHaveCount(0);
});

test('the operator sees a short set-up note once; customers never do', async ({ browser, request }) => {
  const operator = await browser.newPage({ colorScheme: 'light', viewport: DESKTOP });
  await operator.goto('/generate');
  await signInWithCode(operator, request, OPERATOR);
  await expect(operator).toHaveURL(/\/generate$/);
  const hint = operator.getByTestId('operator-setup-hint');
  await expect(hint).toBeVisible();
  await expect(hint.getByRole('link')).toHaveAttribute('href', '/README.md#ai-providers');
  const readme = await request.get('/README.md');
  expect(readme.status()).toBe(200);
  expect(await readme.text()).toContain('## AI providers');
  await shot(operator, 'operator-hint');
  await hint.getByTestId('operator-setup-hint-dismiss').click();
  await expect(hint).toHaveCount(0);
  await operator.reload();
  await expect(operator.getByTestId('generate-form')).toBeVisible();
  await expect(operator.getByTestId('operator-setup-hint')).toHaveCount(0);
  await operator.close();
});

test('signed out on another device: the old balance and the person’s data leave this screen', async ({
  browser,
  request,
}) => {
  await page.goto('/generate');
  const balance = header(page).getByTestId('credit-balance');
  await expect(balance).toHaveText(/\d/);

  const other = await browser.newContext({ colorScheme: 'light' });
  const otherPage = await other.newPage();
  await otherPage.goto('/account');
  await signInWithCode(otherPage, request, email);
  await expect(otherPage).toHaveURL(/\/account$/);
  await otherPage.getByRole('button', { name: t.account.signOutEverywhere }).click();
  await otherPage.getByRole('button', { name: t.account.signOutEverywhereConfirm }).click();
  await expect(header(otherPage).getByRole('link', { name: t.header.signIn })).toBeVisible();
  await other.close();

  // This device learns at its next call to the server (here: opening the Gallery).
  await header(page).getByRole('link', { name: 'Gallery' }).click();
  await expect(page).toHaveURL(/\/auth\?redirectToPath=/);
  await expect(header(page).getByTestId('credit-balance')).toHaveCount(0);
  await expect(header(page).getByRole('link', { name: t.header.signIn })).toBeVisible();
});

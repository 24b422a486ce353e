import { expect, test, type Page } from '@playwright/test';
import { card, newEmail, nextMessage, latestMessageId } from './support/auth';
import { waitForExamples } from './support/examples';
import { shot } from './support/page';
import { skipOnboardingIfAsked } from './support/onboarding';

/** Cumulative layout shift so far, from the browser's own layout-shift entries. */
const layoutShift = (page: Page) =>
  page.evaluate(
    () =>
      new Promise<number>((resolve) => {
        let total = 0;
        new PerformanceObserver((list) => {
          for (const entry of list.getEntries() as Array<
            PerformanceEntry & { value: number; hadRecentInput: boolean }
          >) {
            if (!entry.hadRecentInput) total += entry.value;
          }
        }).observe({ type: 'layout-shift', buffered: true });
        setTimeout(() => resolve(total), 500);
      }),
  );

test('a signed-out visitor sees the work, the counter and the prices, with one call to action and no layout shift', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await waitForExamples(page);
  await page.goto('/');
  const showcase = page.getByTestId('showcase');
  await expect(showcase.getByTestId('example-card')).toHaveCount(6);
  // Lazy images beyond the first row, each with its size set so nothing moves when it loads.
  const images = showcase.locator('img');
  for (let i = 0; i < 6; i++) {
    const img = images.nth(i);
    expect(Number(await img.getAttribute('width'))).toBeGreaterThan(0);
    expect(Number(await img.getAttribute('height'))).toBeGreaterThan(0);
    expect(await img.getAttribute('loading')).toBe(i < 3 ? 'eager' : 'lazy');
  }
  await expect(showcase.getByTestId('example-prompt').first()).not.toBeEmpty();
  await expect(page.getByTestId('live-counter')).toHaveText(/\d[\d,]* images? created so far/);
  const prices = page.getByTestId('package-price');
  await expect(prices).toHaveCount(3);
  await expect(prices.first()).toContainText('$5.00');
  await expect(prices.first()).toContainText('100 credits');
  // One call to action.
  await expect(page.getByRole('main').getByRole('link', { name: 'Start creating' })).toHaveCount(1);
  await page.mouse.wheel(0, 4000);
  await page.waitForTimeout(500);
  expect(await layoutShift(page)).toBeLessThan(0.1);
  await shot(page, 'landing-light');
  await page.setViewportSize({ width: 390, height: 844 });
  await shot(page, 'landing-phone');
});

test('Examples are public: browse by category, then "Try this prompt" leads through sign-in to Generate, filled', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  await waitForExamples(page);
  await page.goto('/');
  await page.getByRole('link', { name: 'See all examples' }).click();
  await expect(page).toHaveURL(/\/examples$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Examples' })).toBeVisible();
  const cards = page.getByTestId('example-card');
  await expect(cards.first()).toBeVisible();
  await page.getByRole('button', { name: /^Posters/ }).click();
  await expect(page).toHaveURL(/category=Posters/);
  await expect(cards).toHaveCount(3);
  const first = cards.first();
  await expect(first.getByTestId('example-model')).toContainText('Prism');
  const prompt = (await first.getByTestId('example-prompt').textContent())!;
  await shot(page, 'examples-light');

  await first.getByRole('link', { name: 'Try this prompt' }).click();
  await expect(page).toHaveURL(/\/auth\?redirectToPath=/);
  const email = newEmail('try-prompt');
  const before = await latestMessageId(request, email);
  await card.email(page).fill(email);
  await card.submit(page).click();
  const message = await nextMessage(request, email, before);
  await card.code(page).fill(message.code!);
  await card.submit(page).click();
  // A new person: onboarding first, skipped on to the page they asked for.
  await skipOnboardingIfAsked(page);
  await expect(page).toHaveURL(/\/generate$/);
  await expect(page.locator('textarea[name="text"]')).toHaveValue(prompt);
});

test('the sign-in card links to real Terms of Service and Privacy Policy pages', async ({ page }) => {
  for (const [name, path] of [
    ['Terms of Service', '/terms'],
    ['Privacy Policy', '/privacy'],
  ] as const) {
    // The terms are on the card's sign-up view (the SDK's separate view, as passkeys are a first factor).
    await page.goto('/auth?show=signup');
    await expect(card.container(page)).toBeVisible();
    const link = card.container(page).getByRole('link', { name });
    await expect(link).toHaveAttribute('href', path);
    // The prebuilt card opens them in a new tab.
    const opened = (await link.getAttribute('target')) === '_blank';
    const [target] = await Promise.all([
      opened ? page.context().waitForEvent('page') : Promise.resolve(page),
      link.click(),
    ]);
    await expect(target).toHaveURL(new RegExp(`${path}$`));
    await expect(target.getByRole('heading', { level: 1, name })).toBeVisible();
    await expect(target.getByRole('heading', { level: 2 }).first()).toBeVisible();
    await shot(target, `${path.slice(1)}-light`);
    if (opened) await target.close();
  }
});

import { expect, test, type Page } from '@playwright/test';
import { newEmail, signInWithCode } from './support/auth';
import { seriousViolations } from './support/axe';
import { waitForExamples } from './support/examples';
import { skipOnboarding } from './support/onboarding';

/** Every main page, signed out first (public) then signed in. */
const PUBLIC_PAGES = ['/', '/examples', '/products', '/terms', '/privacy', '/referrals'];
const SIGNED_IN_PAGES = [
  '/generate',
  '/studio',
  '/gallery',
  '/credits',
  '/referrals',
  '/account',
  '/training',
  '/models',
  '/my-products',
];

async function settle(page: Page, path: string) {
  await page.goto(path);
  // A route's code arrives on first visit; on a busy 2-core machine that can take more than 5 s.
  await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible({ timeout: 15_000 });
  // Let lazy panels and queries finish so axe sees the page a person sees (signed-in pages keep a
  // progress stream open, so the network never goes idle).
  await expect(page.locator('[aria-busy="true"]')).toHaveCount(0, { timeout: 10_000 });
  await page.waitForTimeout(750);
}

for (const theme of ['light', 'dark'] as const) {
  test(`main pages have no serious or critical accessibility violations (${theme})`, async ({
    page,
    request,
  }) => {
    test.setTimeout(180_000);
    // The landing page and Examples are checked with their images.
    await waitForExamples(page);
    await page.emulateMedia({ colorScheme: theme });
    const found: Record<string, unknown> = {};
    for (const path of PUBLIC_PAGES) {
      await settle(page, path);
      if (theme === 'dark') await expect(page.locator('html')).toHaveClass(/\bdark\b/);
      const withImages = path === '/' || path === '/examples';
      if (withImages) await expect(page.getByTestId('example-card').first()).toBeVisible();
      const violations = await seriousViolations(page, withImages ? ['image-alt'] : []);
      if (violations.length) found[path] = violations;
    }
    await page.goto('/auth');
    await signInWithCode(page, request, newEmail(`a11y-${theme}`));
    await expect(page).toHaveURL(/\/onboarding/);
    // Onboarding first, as a new person sees it; then they skip it and the app's pages open.
    await settle(page, '/onboarding');
    const onboarding = await seriousViolations(page);
    if (onboarding.length) found['/onboarding'] = onboarding;
    await skipOnboarding(page);
    for (const path of SIGNED_IN_PAGES) {
      await settle(page, path);
      const violations = await seriousViolations(page);
      if (violations.length) found[path] = violations;
    }
    expect(found, JSON.stringify(found, null, 2)).toEqual({});
  });
}

import { expect, type Page } from '@playwright/test';
import { en as common } from './locale';

/**
 * On /onboarding: "Skip for now", as a person would (POST /api/onboarding/skip), then wait to leave for
 * the page they first opened (`?next=`) or Generate. Specs about other pages start this way, so a new
 * person's onboarding never stands between them and the page under test.
 */
export async function skipOnboarding(page: Page) {
  await expect(page).toHaveURL(/\/onboarding(\?|$)/);
  const next = new URL(page.url()).searchParams.get('next') ?? '/generate';
  await page.getByRole('button', { name: common.onboarding.skip }).click();
  // The page may tidy its query once it has read it (Generate takes `?prompt=` into its form), so the
  // path is what must match.
  const nextPath = new URL(next, page.url()).pathname;
  await expect(page).toHaveURL((url) => url.pathname === nextPath);
}

/** Sign-in is over once the page has left the code card: for an app page, /onboarding, or a second factor. */
const leftSignIn = (url: URL) =>
  !(url.pathname === '/auth' || url.pathname.startsWith('/auth/')) || url.pathname.startsWith('/auth/mfa');

/**
 * After a new person signs in for an app page (`/auth?redirectToPath=/training`), the app sends them to
 * `/onboarding?next=/training` first: they skip it and arrive where they asked to go. A sign-in that
 * lands on plain /onboarding (no page asked for) or a second factor is left as it is.
 */
export async function skipOnboardingIfAsked(page: Page) {
  await page.waitForURL(leftSignIn, { timeout: 15_000 });
  if (new URL(page.url()).pathname.startsWith('/auth/mfa')) return;
  // The app decides once it knows the profile (the header then shows the email) and the sign-in card
  // has gone (its heading is hidden, but a heading): only then is the page's URL settled. A route's code
  // can take a while to arrive on a busy machine.
  await expect(page.getByRole('banner').getByTestId('user-email').first()).toBeAttached({ timeout: 15_000 });
  await expect(
    page.getByRole('heading', { level: 1, name: common.pages.auth!.title, exact: true }),
  ).toHaveCount(0);
  await expect(page.getByRole('main').getByRole('heading', { level: 1 }).first()).toBeVisible({
    timeout: 15_000,
  });
  const url = new URL(page.url());
  if (url.pathname === '/onboarding' && url.searchParams.has('next')) await skipOnboarding(page);
}

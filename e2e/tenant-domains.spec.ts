import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { card, header, latestMessageId, nextGoogleUser, nextMessage, requestCode } from './support/auth';
import { skipOnboardingIfAsked } from './support/onboarding';
import { en as common, SIGN_OUT } from './support/locale';

/**
 * The `acme` tenant admits only addresses at acme.example (TENANTS_JSON of the main e2e server in
 * playwright.config.ts). The sign-in card reaches it through `?tenantId=acme`.
 */
const ALLOWED_DOMAIN = 'acme.example';

const address = (label: string, domain: string) =>
  `e2e-${label}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@${domain}`;

/** Signs in on the acme tenant's card with the emailed code. */
async function signInToAcme(page: Page, request: APIRequestContext, email: string) {
  await page.goto('/auth?tenantId=acme');
  await expect(card.email(page)).toBeVisible();
  const before = await requestCode(page, request, email);
  const message = await nextMessage(request, email, before);
  await card.code(page).fill(message.code!);
  await card.submit(page).click();
}

const deniedScreen = (page: Page) => page.locator('[data-supertokens~="accessDenied"]');

test('a person of another domain signs in to the tenant and sees the access-denied screen (no profile request), then signs out', async ({
  page,
  request,
}) => {
  const email = address('outsider', 'elsewhere.example');
  // The web treats a session the tenant refuses as not complete (gatingClaims): it makes no product call,
  // so the header never shows "Failed to fetch user profile" behind the screen.
  const productCalls: string[] = [];
  page.on('request', (r) => {
    if (new URL(r.url()).pathname.startsWith('/api/')) productCalls.push(new URL(r.url()).pathname);
  });
  await signInToAcme(page, request, email);

  const denied = deniedScreen(page);
  await expect(denied).toBeVisible({ timeout: 15_000 });
  await expect(denied.locator('[data-supertokens~="headerTitle"]')).toHaveText('Access denied');
  await expect(denied.locator('[data-supertokens~="accessDeniedError"]')).toContainText(
    `This organisation only admits email addresses at ${ALLOWED_DOMAIN}, and yours is at elsewhere.example.`,
  );
  // Nothing of the protected page is shown.
  await expect(page.getByRole('heading', { level: 1, name: common.pages.onboarding!.title })).toHaveCount(0);
  // The header asks for the profile as the page mounts: give it time to, then: no request, no error.
  await page.waitForTimeout(2000);
  expect(productCalls.filter((p) => p === '/api/user')).toEqual([]);
  await expect(page.getByText(common.auth.profileErrors.fetchFailed)).toHaveCount(0);
  await page.screenshot({ path: 'test-results/screenshots/tenant-access-denied.png' });

  // The screen's own "Sign out" ends the session and returns to the sign-in card.
  const signOut = denied.locator('[data-supertokens~="logoutButton"]');
  await expect(signOut).toHaveText(SIGN_OUT);
  await signOut.click();
  // The SDK's redirectToAuth: /auth/?show=signin.
  await expect(page).toHaveURL(/\/auth\/?(\?|$)/);
  await expect(card.email(page)).toBeVisible();
  await page.goto('/onboarding');
  await expect(page).toHaveURL(/\/auth\?redirectToPath=/);
});

test('a person of the allowed domain signs in to the tenant and uses the app', async ({ page, request }) => {
  const email = address('insider', ALLOWED_DOMAIN);
  await signInToAcme(page, request, email);
  await skipOnboardingIfAsked(page);
  await expect(deniedScreen(page)).toHaveCount(0);
  await expect(header(page).getByTestId('user-email')).toHaveText(email);
  await expect(page.getByRole('main').getByRole('heading', { level: 1 }).first()).toBeVisible();
});

test('a Google address at the allowed domain that Google does not vouch for is verified by email, then let in', async ({
  page,
  request,
}) => {
  const email = address('unverified', ALLOWED_DOMAIN);
  await nextGoogleUser(request, { sub: `google-${email}`, email, email_verified: false });
  await page.goto('/auth?tenantId=acme');
  await page.getByRole('button', { name: 'Continue with Google', exact: true }).click();

  // The tenant cannot tell the domain of an unverified address: refused, with the way out offered.
  const denied = deniedScreen(page);
  await expect(denied).toBeVisible({ timeout: 15_000 });
  await expect(denied.locator('[data-supertokens~="accessDeniedError"]')).toContainText(
    `This organisation only admits email addresses at ${ALLOWED_DOMAIN}, and this sign-in has no verified email address.`,
  );
  const offer = page.getByTestId('verify-to-enter');
  const before = await latestMessageId(request, email);
  await offer.getByRole('button', { name: common.auth.verifyToEnter!.send }).click();
  await expect(offer.getByRole('status')).toHaveText(common.auth.verifyToEnter!.sent);

  // The link, opened in this browser, verifies the address and updates this session's claims.
  const message = await nextMessage(request, email, before);
  expect(message.link).toContain('/auth/verify-email?token=');
  await page.goto(message.link!);
  await expect(page.locator('[data-supertokens~="headerTitle"]')).toContainText(/verif/i, {
    timeout: 15_000,
  });
  await page.goto('/');
  await skipOnboardingIfAsked(page);
  await expect(deniedScreen(page)).toHaveCount(0);
  await expect(header(page).getByTestId('user-email')).toHaveText(email);
  await expect(page.getByRole('main').getByRole('heading', { level: 1 }).first()).toBeVisible();
});

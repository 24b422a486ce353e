import { expect, type APIRequestContext, type Page } from '@playwright/test';
import { TOTP } from 'otpauth';
import { card, header, newEmail, signInWithCode, totpCard } from './auth';
import { en as common } from './locale';
import { skipOnboarding } from './onboarding';

/** An authenticator app: codes from the secret the set-up screen shows (SHA-1, 6 digits, 30 s). */
export function authenticator(secret: string) {
  const totp = new TOTP({ secret: secret.replace(/\s+/g, ''), algorithm: 'SHA1', digits: 6, period: 30 });
  // `offset` steps ahead: the server accepts one step of skew and never the same step twice.
  return (offset = 0) => totp.generate({ timestamp: Date.now() + offset * 30_000 });
}

/**
 * A person signs in from the header with an emailed code and lands on onboarding first, which they skip
 * on to Generate (unless `expectOnboarding` is false, for tests that do not look there).
 */
export async function signInFromHeader(
  page: Page,
  request: APIRequestContext,
  email: string,
  { expectOnboarding = true } = {},
) {
  await page.goto('/');
  await header(page).getByRole('link', { name: common.header.signIn }).click();
  await signInWithCode(page, request, email);
  if (expectOnboarding) await expect(page).toHaveURL(/\/onboarding$/);
  await expect(header(page).getByTestId('user-email')).toHaveText(email);
  if (expectOnboarding) await skipOnboarding(page);
}

/** `signInFromHeader` with a fresh address (named for the test); returns the address. */
export async function signInNewPerson(
  page: Page,
  request: APIRequestContext,
  label: string,
  options: { expectOnboarding?: boolean } = {},
): Promise<string> {
  const email = newEmail(label);
  await signInFromHeader(page, request, email, options);
  return email;
}

/** Opens the account page from the header, as a person would. */
export async function openAccount(page: Page) {
  await header(page).getByRole('link', { name: common.header.accountLabel }).click();
  await expect(page).toHaveURL(/\/account$/);
}

/** A fresh person, signed in from the header, on their account page; returns their address. */
export async function newPersonOnAccountPage(page: Page, request: APIRequestContext, label: string) {
  const email = await signInNewPerson(page, request, label);
  await openAccount(page);
  return email;
}

/**
 * On the account page: sets up the authenticator app through the prebuilt screen (showing the secret
 * instead of scanning the QR code), then turns on the email code too. Returns the authenticator.
 */
export async function turnOnAuthenticatorAndEmailCode(page: Page) {
  await page.getByTestId('factor-totp').getByRole('button', { name: common.account.setUp }).click();
  await expect(page).toHaveURL(/\/auth\/mfa\/totp/);
  await totpCard.showSecret(page).click();
  const code = authenticator((await totpCard.secret(page).innerText()).trim());
  await totpCard.code(page).fill(code());
  await card.submit(page).click();
  await expect(page.getByTestId('factor-totp')).toHaveAttribute('data-state', 'on');
  const emailRow = page.getByTestId('factor-otp-email');
  await emailRow.getByRole('button', { name: common.account.turnOn }).click();
  await expect(emailRow).toHaveAttribute('data-state', 'on');
  return code;
}

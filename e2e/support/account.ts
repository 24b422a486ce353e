import { expect, type APIRequestContext, type Page } from '@playwright/test';
import { TOTP } from 'otpauth';
import { common, header, signInWithCode } from './auth';

/** An authenticator app: codes from the secret the set-up screen shows (SHA-1, 6 digits, 30 s). */
export function authenticator(secret: string) {
  const totp = new TOTP({ secret: secret.replace(/\s+/g, ''), algorithm: 'SHA1', digits: 6, period: 30 });
  // `offset` steps ahead: the server accepts one step of skew and never the same step twice.
  return (offset = 0) => totp.generate({ timestamp: Date.now() + offset * 30_000 });
}

/** A new person signs in from the header with an emailed code and lands on onboarding. */
export async function signInFromHeader(page: Page, request: APIRequestContext, email: string) {
  await page.goto('/');
  await header(page).getByRole('link', { name: common.header.signIn }).click();
  await signInWithCode(page, request, email);
  // A new user lands on onboarding once the SDK has finished signing in.
  await expect(page).toHaveURL(/\/onboarding$/);
  await expect(header(page).getByTestId('user-email')).toHaveText(email);
}

/** Opens the account page from the header, as a person would. */
export async function openAccount(page: Page) {
  await header(page).getByRole('link', { name: common.header.accountLabel }).click();
  await expect(page).toHaveURL(/\/account$/);
}

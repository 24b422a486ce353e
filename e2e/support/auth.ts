import { expect, type APIRequestContext, type Page } from '@playwright/test';
import { skipOnboardingIfAsked } from './onboarding';

/** A fresh address per test, so tests never share a user or a rate-limit bucket. */
export function newEmail(label: string): string {
  return `e2e-${label}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;
}

export interface MailboxMessage {
  id: number;
  to: string;
  subject: string;
  code?: string;
  link?: string;
}

/** Messages the server "sent" to `to`, newest first (`GET /api/dev/mailbox`, outside production only). */
export async function mailbox(request: APIRequestContext, to: string): Promise<MailboxMessage[]> {
  const response = await request.get('/api/dev/mailbox', { params: { to } });
  expect(response.status(), 'the development mailbox answers').toBe(200);
  return (await response.json()) as MailboxMessage[];
}

/** Waits for a message to `to` newer than `afterId` and returns it. */
export async function nextMessage(
  request: APIRequestContext,
  to: string,
  afterId = 0,
): Promise<MailboxMessage> {
  let found: MailboxMessage | undefined;
  await expect
    .poll(
      async () => {
        found = (await mailbox(request, to)).find((m) => m.id > afterId);
        return found !== undefined;
      },
      { message: `a sign-in email reaches ${to}`, timeout: 10_000 },
    )
    .toBe(true);
  return found!;
}

export async function latestMessageId(request: APIRequestContext, to: string): Promise<number> {
  return (await mailbox(request, to))[0]?.id ?? 0;
}

const FDI = { rid: 'passwordless', 'fdi-version': '4.1', 'st-auth-mode': 'header' };

/**
 * Creates an account through the server's own FDI calls (email code), as another device would. The
 * person then skips onboarding there too (POST /api/onboarding/skip with the new access token), as a
 * returning person has, unless `onboarded` is false. Returns the new session's access token.
 */
export async function signUpThroughApi(
  request: APIRequestContext,
  email: string,
  { onboarded = true } = {},
): Promise<string> {
  const before = await latestMessageId(request, email);
  const created = await request.post('/auth/signinup/code', {
    headers: FDI,
    data: { email, shouldTryLinkingWithSessionUser: false },
  });
  expect(created.status()).toBe(200);
  const { deviceId, preAuthSessionId } = (await created.json()) as {
    deviceId: string;
    preAuthSessionId: string;
  };
  const message = await nextMessage(request, email, before);
  const consumed = await request.post('/auth/signinup/code/consume', {
    headers: FDI,
    data: { userInputCode: message.code, deviceId, preAuthSessionId, shouldTryLinkingWithSessionUser: false },
  });
  expect(await consumed.json()).toMatchObject({ status: 'OK', createdNewRecipeUser: true });
  const token = consumed.headers()['st-access-token'];
  expect(token, 'header-mode sign-in answers with an access token').toBeTruthy();
  if (!onboarded) return token!;
  const skipped = await request.post('/api/onboarding/skip', {
    headers: { authorization: `Bearer ${token}` },
  });
  expect(skipped.status()).toBe(200);
  return token!;
}

/** The prebuilt sign-in card's inputs live in a shadow root; Playwright's CSS selectors pierce it. */
export const card = {
  email: (page: Page) => page.locator('input[name="email"]'),
  code: (page: Page) => page.locator('input[name="userInputCode"]'),
  submit: (page: Page) => page.locator('[data-supertokens~="container"] button[type="submit"]'),
  container: (page: Page) => page.locator('[data-supertokens~="container"]'),
};

/** Types the email into the card and asks for a code; returns the mailbox id to read newer messages from. */
export async function requestCode(page: Page, request: APIRequestContext, email: string): Promise<number> {
  const before = await latestMessageId(request, email);
  await card.email(page).fill(email);
  await card.submit(page).click();
  await expect(card.code(page)).toBeVisible();
  return before;
}

/**
 * Signs in (or up) on the current /auth page with the emailed code. A new person who signed in for an
 * app page skips onboarding on the way there (support/onboarding.ts); plain /onboarding is left as it is.
 */
export async function signInWithCode(page: Page, request: APIRequestContext, email: string): Promise<void> {
  const before = await requestCode(page, request, email);
  const message = await nextMessage(request, email, before);
  expect(message.code).toMatch(/^\d{6}$/);
  await card.code(page).fill(message.code!);
  await card.submit(page).click();
  await skipOnboardingIfAsked(page);
}

export const header = (page: Page) => page.getByRole('banner');

/** The fake OpenID provider that stands in for Google (a webServer in playwright.config.ts). */
export const FAKE_GOOGLE_URL = `http://127.0.0.1:${Number(process.env.E2E_PORT_BASE ?? 3100) + 2}`;

/** Chooses who the fake Google signs in next (what a person would do on Google's own page). */
export async function nextGoogleUser(
  request: APIRequestContext,
  user: { sub: string; email: string; email_verified?: boolean },
): Promise<void> {
  const response = await request.post(`${FAKE_GOOGLE_URL}/_test/next-user`, {
    data: { email_verified: true, ...user },
  });
  expect(response.status()).toBe(200);
}

/** The prebuilt TOTP screens (set-up and sign-in); also in the shadow root. */
export const totpCard = {
  showSecret: (page: Page) => page.locator('[data-supertokens~="showTOTPSecretBtn"]'),
  secret: (page: Page) => page.locator('[data-supertokens~="totpSecret"]'),
  code: (page: Page) => page.locator('input[name="totp"]'),
};

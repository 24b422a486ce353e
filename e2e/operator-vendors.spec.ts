import { expect, test } from '@playwright/test';
import { header, newEmail, signInWithCode } from './support/auth';

/**
 * The operator console's first page (issue 17, failover): an operator (ADMIN_EMAILS of the e2e
 * server, see playwright.config.ts) finds "Vendors" in the user menu and sees each configured vendor's
 * circuit breaker and the models that run on it; someone else has no link and is refused by the server.
 */
const OPERATOR = 'operator@example.com';

test('an operator opens the vendors page from the user menu and sees each vendor’s state', async ({
  page,
  request,
}) => {
  await page.goto('/generate');
  await expect(page).toHaveURL(/\/auth\?redirectToPath=/);
  await signInWithCode(page, request, OPERATOR);
  await expect(page).toHaveURL(/\/generate$/);

  await header(page).getByTestId('operator-vendors-link').click();
  await expect(page).toHaveURL(/\/operator\/vendors$/);
  await expect(page.getByRole('heading', { name: 'Vendors', level: 1 })).toBeVisible();
  // The e2e server runs the local engine only: it is listed, working, with its models.
  const local = page.getByTestId('vendor-local');
  await expect(local).toBeVisible();
  await expect(local).toHaveAttribute('data-state', 'closed');
  await expect(local.getByTestId('vendor-state')).toHaveText('Working');
  await expect(local.getByTestId('vendor-model').first()).toBeVisible();
  await expect(local.getByText('Aurora · local procedural engine')).toBeVisible();
  // Nothing to reset while closed.
  await expect(local.getByTestId('vendor-reset')).toHaveCount(0);
});

test('someone who is not an operator has no link, and the page shows the server’s refusal', async ({
  page,
  request,
}) => {
  await page.goto('/generate');
  await signInWithCode(page, request, newEmail('not-operator'));
  await expect(page).toHaveURL(/\/generate$/);
  await expect(header(page).getByTestId('user-menu')).toBeVisible();
  await expect(header(page).getByTestId('operator-vendors-link')).toHaveCount(0);

  await page.goto('/operator/vendors');
  await expect(page.getByRole('alert')).toContainText(
    'Only operators of this server can see vendors and reset their breakers.',
  );
});

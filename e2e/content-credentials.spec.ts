import { expect, test } from '@playwright/test';
import { newEmail, signInWithCode } from './support/auth';
import { en as t } from './support/locale';

test.use({ colorScheme: 'light' });

test('an image made with the local engine shows its content credentials in the lightbox', async ({
  page,
  request,
}) => {
  test.setTimeout(90_000);
  await page.goto('/generate');
  await expect(page).toHaveURL(/\/auth\?redirectToPath=/);
  await signInWithCode(page, request, newEmail('c2pa'));
  await expect(page).toHaveURL(/\/generate$/);

  const form = page.getByTestId('generate-form');
  await form.getByLabel(t.generate.form.prompt, { exact: true }).fill('a red kite over green hills');
  await form.getByTestId('generate-submit').click();
  const job = page.getByTestId('job-card').first();
  await expect(job.getByTestId('job-status')).toHaveText(t.generate.status.succeeded!, { timeout: 30_000 });

  const result = job.getByTestId('image-card').first();
  await expect(result).toBeVisible();
  await result.locator('button').first().click();
  const panel = page.getByRole('dialog').getByTestId('content-credentials');
  await expect(panel.getByRole('heading')).toHaveText(t.gallery.credentials.title);
  // Read back by the server from the stored file: made by AI, by the local engine's model, signed, valid.
  await expect(panel.getByTestId('credentials-made')).toHaveText(/^Made with AI by .+ on the local engine$/);
  await expect(panel.getByTestId('credentials-signed')).toHaveText(
    /^Signed by Lumina Development Signer on /,
  );
  await expect(panel.getByTestId('credentials-generator')).toHaveText('Credentials written by Lumina');
  await expect(panel.getByTestId('credentials-validity')).toHaveText(t.gallery.credentials.valid);
  await expect(panel.getByTestId('credentials-edited')).toHaveCount(0);
});

import type { Page } from '@playwright/test';

/** A full-page screenshot kept with the test results, for a person to look over. */
export const shot = (page: Page, name: string) =>
  page.screenshot({ path: `test-results/screenshots/${name}.png`, fullPage: true });

/** The number in a text such as "1,250 credits". */
export const digits = (text: string | null) => Number((text ?? '').replace(/\D/g, ''));

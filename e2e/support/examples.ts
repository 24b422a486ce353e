import { expect, type Page } from '@playwright/test';

/** The example set is rendered in the background after start-up; waits until it is published. */
export async function waitForExamples(page: Page, count = 6) {
  await expect
    .poll(
      async () => {
        const res = await page.request.get('/api/example_images?limit=100');
        return ((await res.json()) as { items: unknown[] }).items.length;
      },
      { timeout: 90_000, intervals: [1000], message: 'waiting for the seeded examples' },
    )
    .toBeGreaterThanOrEqual(count);
}

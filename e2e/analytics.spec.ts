import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { header, newEmail, signInWithCode } from './support/auth';
import { chromiumLaunch } from './support/browser';

/** The fake PostHog capture endpoint the e2e server sends to (playwright.config.ts, PORT_BASE + 3). */
const POSTHOG = `http://127.0.0.1:${Number(process.env.E2E_PORT_BASE ?? 3100) + 3}`;

interface Captured {
  event: string;
  distinct_id?: string;
  properties: Record<string, unknown>;
  /** posthog-js sends person properties beside `properties`. */
  $set?: Record<string, unknown>;
  path: string;
  seq: number;
}

async function captured(request: APIRequestContext): Promise<Captured[]> {
  const res = await request.get(`${POSTHOG}/_test/events`);
  return ((await res.json()) as { events: Captured[] }).events.sort((a, b) => a.seq - b.seq);
}

/** Waits until an event matching `match` has arrived, and returns it. */
async function arrived(request: APIRequestContext, match: (e: Captured) => boolean, what: string) {
  let found: Captured | undefined;
  await expect
    .poll(
      async () => {
        found = (await captured(request)).find(match);
        return Boolean(found);
      },
      { message: `waiting for ${what}`, timeout: 20_000, intervals: [250] },
    )
    .toBe(true);
  return found!;
}

const pathOf = (e: Captured) => new URL(String(e.properties.$current_url)).pathname;
const browserEvents = (events: Captured[]) => events.filter((e) => e.properties.$lib === 'web');

test.describe.configure({ mode: 'serial' });
// posthog-js drops events from browsers that look like bots (a HeadlessChrome user agent, or
// navigator.webdriver set by automation): browse as the desktop Chrome a person would use.
test.use({
  userAgent:
    'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0.0.0 Safari/537.36',
  launchOptions: {
    ...chromiumLaunch,
    args: [...chromiumLaunch.args, '--disable-blink-features=AutomationControlled'],
  },
});

test('page views on every route change, a page leave, identify by id and email, reset on sign-out; rage clicks and exceptions', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  await request.post(`${POSTHOG}/_test/reset`);
  const sdk: string[] = [];
  page.on('request', (r) => {
    if (r.url().includes('analytics-sdk')) sdk.push(r.url());
  });

  await page.goto('/');
  const first = await arrived(request, (e) => e.event === '$pageview', 'the first page view');
  expect(pathOf(first)).toBe('/');
  expect(first.properties.token).toBe('phc_e2e_key');
  expect(sdk.length).toBe(1);
  const anonymous = first.distinct_id;

  await header(page).getByRole('link', { name: 'Examples' }).first().click();
  await expect(page).toHaveURL(/\/examples$/);
  await arrived(
    request,
    (e) => e.event === '$pageview' && pathOf(e) === '/examples',
    'the Examples page view',
  );
  let events = browserEvents(await captured(request));
  const route = events.filter((e) => e.event === '$pageview' || e.event === '$pageleave');
  expect(route.map((e) => `${e.event} ${pathOf(e)}`)).toEqual([
    '$pageview /',
    '$pageleave /',
    '$pageview /examples',
  ]);

  // A rage click: three clicks within 30 px and a second (on a chip that is already selected).
  const box = (await page.getByRole('button', { name: /^All/ }).boundingBox())!;
  for (let i = 0; i < 3; i++) await page.mouse.click(box.x + 10 + i * 5, box.y + box.height / 2);
  await arrived(request, (e) => e.event === '$rageclick', 'a rage click');

  // An uncaught exception.
  await page.evaluate(() => {
    setTimeout(() => {
      throw new Error('e2e analytics boom');
    }, 0);
  });
  const exception = await arrived(request, (e) => e.event === '$exception', 'an exception');
  expect(JSON.stringify(exception.properties.$exception_list)).toContain('e2e analytics boom');

  // Sign in: the person is identified by id and email.
  const email = newEmail('analytics');
  await header(page).getByRole('link', { name: 'Sign in' }).click();
  await signInWithCode(page, request, email);
  await expect(page).toHaveURL(/\/onboarding/);
  const identify = await arrived(request, (e) => e.event === '$identify', 'identify');
  expect(identify.distinct_id).toMatch(/^[0-9a-f-]{36}$/);
  expect(identify.properties.$anon_distinct_id).toBe(anonymous);
  expect(identify.$set ?? identify.properties.$set).toMatchObject({ email });
  // The server's sign-up event lands on the same person.
  const signup = await arrived(
    request,
    (e) => e.event === 'user signed up' && e.distinct_id === identify.distinct_id,
    'the server-side sign-up event',
  );
  expect(signup.path).toBe('/batch/');
  expect(signup.properties.$set).toMatchObject({ email });

  // Sign out: later events are anonymous again.
  await header(page).getByRole('button', { name: 'Sign out' }).click();
  await page.goto('/examples');
  const after = await arrived(
    request,
    (e) =>
      e.event === '$pageview' &&
      e.seq > identify.seq &&
      e.distinct_id !== identify.distinct_id &&
      pathOf(e) === '/examples',
    'an anonymous page view after sign-out',
  );
  expect(after.distinct_id).not.toBe(anonymous);

  events = browserEvents(await captured(request));
  // Captured text and user agents stay within the spec's limits.
  for (const e of events) {
    if (typeof e.properties.$el_text === 'string')
      expect(e.properties.$el_text.length).toBeLessThanOrEqual(255);
    if (typeof e.properties.$raw_user_agent === 'string')
      expect(e.properties.$raw_user_agent.length).toBeLessThanOrEqual(1000);
  }
  expect(events.some((e) => e.event === '$autocapture')).toBe(true);
  // In order: the page views, the identify after them, the anonymous page view last.
  const seqOf = (e: Captured) => e.seq;
  expect(seqOf(first)).toBeLessThan(seqOf(identify));
  expect(seqOf(identify)).toBeLessThan(seqOf(after));
});

async function visitWithoutAnalytics(page: Page) {
  await page.route('**/api/config', (route) =>
    route.fulfill({
      json: {
        analytics: null,
        referrals: { reward_credits: 100, welcome_credits: 50, monthly_cap: 20, settle_days: 14 },
      },
    }),
  );
  const requests: string[] = [];
  page.on('request', (r) => requests.push(r.url()));
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await header(page).getByRole('link', { name: 'Examples' }).first().click();
  await expect(page).toHaveURL(/\/examples$/);
  await page.waitForTimeout(1000);
  return requests;
}

test('without a PostHog key nothing is loaded and nothing is sent', async ({ page, request }) => {
  await request.post(`${POSTHOG}/_test/reset`);
  const requests = await visitWithoutAnalytics(page);
  expect(requests.filter((u) => u.includes('analytics-sdk'))).toEqual([]);
  expect(requests.filter((u) => u.startsWith(POSTHOG))).toEqual([]);
  expect(browserEvents(await captured(request))).toEqual([]);
});

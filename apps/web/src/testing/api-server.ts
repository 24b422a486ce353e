import { afterAll, afterEach, beforeAll, beforeEach, vi } from 'vitest';
import i18next, { type i18n as I18n } from 'i18next';
import { configureI18n } from '@/lib/i18n';
import { createLocalServer, type LocalServer } from './local-server';

/**
 * The test file's local server: listening before its tests, closed after them, its request log holding
 * only the current test's requests, and a test failed when one of its routes threw (an impossible fake
 * answer, say). Call it once at the top of a test file (or of a `describe`).
 */
export function setupLocalServer(): LocalServer {
  const server = createLocalServer();
  beforeAll(() => server.listen());
  beforeEach(() => {
    server.requests.length = 0;
  });
  afterEach(() => {
    const failures = server.failures.splice(0);
    if (failures.length > 0) throw failures[0];
  });
  afterAll(() => server.close());
  return server;
}

/**
 * `setupLocalServer` behind the app's same-origin API client: relative `/api/...` requests are sent to it
 * (jsdom has no origin server), so components run their real fetchers against it; `i18n` loads the
 * app's English translations from it.
 */
export function setupApiServer(): { server: LocalServer; i18n: I18n } {
  const server = setupLocalServer();
  // Handed out now and initialised once the server listens, so a test file can keep it in a constant.
  const i18n = i18next.createInstance();
  beforeAll(async () => {
    await configureI18n(i18n, { loadPath: `${server.url}/locales/{{lng}}/{{ns}}.json` });
    const realFetch = globalThis.fetch;
    vi.stubGlobal('fetch', (input: RequestInfo | URL, init?: RequestInit) =>
      realFetch(typeof input === 'string' && input.startsWith('/') ? `${server.url}${input}` : input, init),
    );
  });
  return { server, i18n };
}

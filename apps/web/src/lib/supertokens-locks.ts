/**
 * The locks the SDK takes around a session refresh and a claim re-check (`supertokens-website`:
 * `REFRESH_TOKEN_USE`, `CLAIM_REFRESH_LOCK`), held with the browser's Web Locks API instead of the SDK's
 * default, `browser-tabs-lock`.
 *
 * Why: `browser-tabs-lock` keeps a lock as an entry in localStorage and nothing removes it when the page
 * holding it goes away. Leave a page while its `SessionAuth` is re-checking the claims (right after the
 * second factor, every mounted guard does) and the next page's `SessionAuth` waits until the orphan is
 * five seconds stale: the page renders nothing for five seconds or more. That was the flaky
 * `e2e/auth-mfa.spec.ts` test ("authenticator + email code on …": after the TOTP code, `page.goto('/gallery')`
 * showed an empty `<main>` for 5 s). A Web Lock is released by the browser the moment its page is gone,
 * and it is still shared by every tab of the origin, which is what the SDK wants the lock for.
 *
 * Where the Web Locks API is missing (old browsers, a non-secure origin) the SDK keeps its default.
 */

/** What the SDK asks of a lock (`supertokens-website`'s `Lock`: the two methods of `browser-tabs-lock`). */
export interface SdkLock {
  acquireLock(lockKey: string, timeout?: number): Promise<boolean>;
  releaseLock(lockKey: string): Promise<void>;
}

/** The SDK's default wait for a lock (browser-tabs-lock's). */
const DEFAULT_TIMEOUT_MS = 5_000;

export function webLock(locks: LockManager, prefix = 'supertokens-'): SdkLock {
  /** Releases for the locks this page holds, by key (the SDK never holds one key twice at once). */
  const held = new Map<string, () => void>();
  return {
    acquireLock(lockKey, timeout = DEFAULT_TIMEOUT_MS) {
      return new Promise<boolean>((resolve) => {
        const controller = new AbortController();
        const timer = setTimeout(() => controller.abort(), timeout);
        locks
          .request(`${prefix}${lockKey}`, { signal: controller.signal }, () => {
            clearTimeout(timer);
            return new Promise<void>((release) => {
              held.set(lockKey, release);
              resolve(true);
            });
          })
          .catch(() => {
            clearTimeout(timer);
            resolve(false);
          });
      });
    },
    async releaseLock(lockKey) {
      const release = held.get(lockKey);
      held.delete(lockKey);
      release?.();
    },
  };
}

/** The `lockFactory` for Session.init, or undefined (the SDK's default) without the Web Locks API. */
export function webLockFactory(
  locks: LockManager | undefined = typeof navigator === 'undefined' ? undefined : navigator.locks,
): (() => Promise<SdkLock>) | undefined {
  if (!locks) return undefined;
  const lock = webLock(locks);
  return () => Promise.resolve(lock);
}

import { afterAll, beforeAll } from 'vitest';

/**
 * Something a test file starts once in `beforeAll` and stops in `afterAll` (an app, a fake vendor).
 * A suite names it while Vitest collects the tests, before it exists, so this returns a stand-in that
 * forwards every property to the started object and fails loudly if touched before `beforeAll` ran.
 */
export function startedForSuite<T extends object>(
  what: string,
  start: () => Promise<T>,
  stop: (started: T) => Promise<void> | void,
): T {
  let started: T | undefined;
  beforeAll(async () => {
    started = await start();
  });
  afterAll(async () => {
    if (started) await stop(started);
  });
  const current = (): T => {
    if (!started) throw new Error(`${what} is used before beforeAll started it`);
    return started;
  };
  return new Proxy({} as T, {
    get(_, key) {
      const target = current();
      const value: unknown = Reflect.get(target, key, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
    set: (_, key, value) => Reflect.set(current(), key, value),
    has: (_, key) => Reflect.has(current(), key),
  });
}

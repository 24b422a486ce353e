import { afterEach, expect } from 'vitest';
import {
  ProviderError,
  type ProgressUpdate,
  type RunContext,
} from '../../src/adapters/providers/text-to-image.ts';
import { startedForSuite } from './suite-scope.ts';

/** What adapter tests need of a fake vendor server (fal, Replicate). */
interface FakeVendor {
  url: string;
  /** Forgets scenarios not yet used (between tests). */
  reset(): void;
  /** Every URL the adapter under test fetched. */
  urlsSeen: string[];
  close(): Promise<void>;
}

/**
 * The fake vendor for one adapter test file: started once, reset after each test, and after each test
 * every byte the adapter fetched must have gone to the fake on 127.0.0.1.
 */
export function useFakeVendor<T extends FakeVendor>(start: () => Promise<T>): T {
  const fake = startedForSuite('the fake vendor', start, (started) => started.close());
  afterEach(() => {
    // Checked before the reset, which forgets the URLs seen (some fakes clear them there).
    try {
      expect(fake.urlsSeen.filter((u) => !u.startsWith(fake.url))).toEqual([]);
    } finally {
      fake.reset();
    }
  });
  return fake;
}

/** A run's context that records what the adapter reported, in order. */
export function runContext(overrides: Partial<RunContext> = {}) {
  const events: string[] = [];
  const progress: ProgressUpdate[] = [];
  const submitted: string[] = [];
  const ctx: RunContext = {
    signal: new AbortController().signal,
    onProgress: (update) => {
      progress.push(update);
      events.push(`progress:${update.status}`);
    },
    onSubmitted: (id) => {
      submitted.push(id);
      events.push('submitted');
    },
    ...overrides,
  };
  return { ctx, events, progress, submitted };
}

/** The ProviderError a run failed with (fails the test if it succeeded or threw something else). */
export async function runError(promise: Promise<unknown>): Promise<ProviderError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ProviderError);
  return error as ProviderError;
}

/** Polls a synchronous condition every 5 ms (fake servers answer at once). */
export async function waitFor(check: () => boolean, timeoutMs = 5000): Promise<void> {
  const start = Date.now();
  while (!check()) {
    if (Date.now() - start > timeoutMs) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

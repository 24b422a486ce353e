/**
 * How many images are decoded at once, process-wide. A decode of a large image holds its pixels (or
 * the HEIC decoder's whole WebAssembly heap) for its duration, so memory grows with the number running
 * together, not with the number of requests: eight 64-megapixel uploads at once ran the server from
 * ~1 GB to ~3 GB before this. Work beyond the slots waits in a bounded queue; past it, an upload is
 * refused with 503 and Retry-After instead of holding its bytes in memory for an unbounded wait.
 */
import pLimit, { type LimitFunction } from 'p-limit';

export interface DecodeSlotSettings {
  /** Decodes running at once. */
  concurrency: number;
  /** Decodes that may wait for a slot; `Infinity` for work that must not be refused (queued jobs). */
  queue: number;
}

/** Seconds a refused upload is told to wait: about one worst-case decode per queued upload ahead. */
const RETRY_AFTER_SECONDS = 5;

export const BUSY_MESSAGE = 'The server is busy with other images right now; try again in a few seconds.';

/** Every decode slot and its queue are taken; the caller answers 503 with Retry-After. */
export class DecodeSlotsBusyError extends Error {
  readonly retryAfterSeconds = RETRY_AFTER_SECONDS;
  constructor() {
    super(BUSY_MESSAGE);
    this.name = 'DecodeSlotsBusyError';
  }
}

let settings: DecodeSlotSettings = { concurrency: 1, queue: 16 };
let limit: LimitFunction = pLimit(settings.concurrency);

/** Sets the slots once at start-up (container.ts), like sharp's own process-wide settings. */
export function configureDecodeSlots(next: DecodeSlotSettings): void {
  settings = next;
  limit = pLimit(next.concurrency);
}

/**
 * Runs `decode` when a slot is free. With `wait: 'bounded'` (requests) it rejects with
 * DecodeSlotsBusyError when the queue is full; `wait: 'always'` (jobs, already limited by the worker's
 * concurrency) always queues.
 */
export function withDecodeSlot<T>(
  decode: () => Promise<T>,
  wait: 'bounded' | 'always' = 'bounded',
): Promise<T> {
  // p-limit starts queued work on a later tick, so running + waiting together is what is taken.
  const taken = limit.activeCount + limit.pendingCount;
  if (wait === 'bounded' && taken >= settings.concurrency + settings.queue) {
    return Promise.reject(new DecodeSlotsBusyError());
  }
  return limit(decode);
}

/** Decodes running and waiting now (for tests and diagnostics). */
export const decodeSlotUsage = () => ({ active: limit.activeCount, waiting: limit.pendingCount });

/**
 * How many images are decoded at once, process-wide. A decode of a large image holds its pixels (or
 * the HEIC decoder's whole WebAssembly heap) for its duration, so memory grows with the number running
 * together, not with the number of requests: eight 64-megapixel uploads at once ran the server from
 * ~1 GB to ~3 GB before this. Work beyond the slots waits in a bounded queue; past it, an upload is
 * refused with 503 and Retry-After instead of holding its bytes in memory for an unbounded wait.
 *
 * The slots are shared fairly between people: each may have only a few decodes waiting (more are
 * refused with a message about their own uploads), and a freed slot goes round the people waiting
 * rather than to the oldest upload. One account sending a stream of slow decodes (50-megapixel HEICs)
 * otherwise filled the whole queue, and everyone else's small uploads were refused as "busy".
 */
import { FairQueue } from './fair-queue.ts';

export interface DecodeSlotSettings {
  /** Decodes running at once. */
  concurrency: number;
  /** Decodes that may wait for a slot; `Infinity` for work that must not be refused (queued jobs). */
  queue: number;
  /** Decodes one person may have waiting for a slot. */
  queuePerPerson: number;
}

export interface DecodeTurn {
  /**
   * Whose image this is: turns go round the people waiting. Work without an owner (jobs' inputs,
   * already bounded by the worker's concurrency) shares one turn.
   */
  owner?: string;
  /**
   * 'bounded' (requests): rejects with DecodeSlotsBusyError when the queue, or the owner's share of
   * it, is full. 'always' (jobs, already limited by the worker's concurrency): always waits.
   */
  wait?: 'bounded' | 'always';
}

/** Seconds a refused upload is told to wait: about one worst-case decode per queued upload ahead. */
const RETRY_AFTER_SECONDS = 5;

export const BUSY_MESSAGE = 'The server is busy with other images right now; try again in a few seconds.';
export const YOUR_IMAGES_BUSY_MESSAGE =
  'You have too many images being processed right now; wait for them to finish, then try again in a moment.';

/**
 * No decode can wait now: every slot and the queue are taken (`mine: false`, answered 503), or this
 * person already has their share waiting (`mine: true`, answered 429). Both carry Retry-After.
 */
export class DecodeSlotsBusyError extends Error {
  readonly retryAfterSeconds = RETRY_AFTER_SECONDS;
  constructor(readonly mine: boolean) {
    super(mine ? YOUR_IMAGES_BUSY_MESSAGE : BUSY_MESSAGE);
    this.name = 'DecodeSlotsBusyError';
  }
}

/** The turn shared by work that has no owner; user ids are never empty. */
const NO_OWNER = '';

let settings: DecodeSlotSettings = { concurrency: 1, queue: 16, queuePerPerson: 2 };
let slots = new FairQueue(settings.concurrency);

/** Sets the slots once at start-up (container.ts), like sharp's own process-wide settings. */
export function configureDecodeSlots(next: DecodeSlotSettings): void {
  settings = next;
  slots = new FairQueue(next.concurrency);
}

/** Runs `decode` when a slot is free and it is its owner's turn (see DecodeTurn). */
export function withDecodeSlot<T>(decode: () => Promise<T>, turn: DecodeTurn = {}): Promise<T> {
  const owner = turn.owner ?? NO_OWNER;
  if ((turn.wait ?? 'bounded') === 'bounded' && slots.full) {
    if (slots.pendingFor(owner) >= settings.queuePerPerson) {
      return Promise.reject(new DecodeSlotsBusyError(true));
    }
    if (slots.pending >= settings.queue) return Promise.reject(new DecodeSlotsBusyError(false));
  }
  return slots.run(owner, decode);
}

/** Decodes running and waiting now (for tests and diagnostics). */
export const decodeSlotUsage = () => ({ active: slots.active, waiting: slots.pending });

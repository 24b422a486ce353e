import { randomUUID } from 'node:crypto';
import type { Database } from '../../db/client.ts';
import { deleteCounters, takeSlotUnderPrefix, touchCounter } from './rate-limits.repository.ts';

/** A slot not refreshed for this long belongs to a process that died; it no longer counts. */
export const STREAM_SLOT_STALE_MS = 60_000;

const keyPrefix = (userId: string) => `sse:${userId}:`;

/**
 * Open progress streams per person, counted in the database so every API process sees the same
 * number: one row per open stream in auth_rate_limits (key `sse:<user>:<slot>`, window_start = last
 * heartbeat). A process that dies leaves rows behind; they stop counting after STREAM_SLOT_STALE_MS,
 * which the stream's keep-alive ping (every 15 s) refreshes well within.
 */
export class StreamSlots {
  constructor(
    private readonly db: Database,
    readonly maxPerUser: number,
  ) {}

  /** A slot id, or null when the person already has `maxPerUser` streams open. */
  async acquire(userId: string): Promise<string | null> {
    const prefix = keyPrefix(userId);
    const slot = `${prefix}${randomUUID()}`;
    const staleBefore = new Date(Date.now() - STREAM_SLOT_STALE_MS);
    return (await takeSlotUnderPrefix(this.db, prefix, slot, this.maxPerUser, staleBefore)) ? slot : null;
  }

  async heartbeat(slot: string): Promise<void> {
    await touchCounter(this.db, slot, new Date());
  }

  async release(slot: string): Promise<void> {
    await deleteCounters(this.db, [slot]);
  }
}

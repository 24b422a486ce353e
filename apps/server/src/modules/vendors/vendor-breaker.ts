import type { Clock } from '../../clock.ts';
import type { Database } from '../../db/client.ts';
import type { VendorHealthRow } from '../../db/schema/index.ts';
import * as repo from './vendor-health.repository.ts';

/**
 * `closed`: the vendor is used. `open`: it failed `failures` times in a row and is skipped until its
 * cool-down ends. `half-open`: the cool-down ended; one job tries it again while the others still skip
 * it, and that job's outcome decides (a success closes it, a failure opens it for another cool-down).
 */
export type BreakerState = 'closed' | 'open' | 'half-open';

/** How stale a healthy vendor's recorded last success may get before a success is written again. */
const SUCCESS_WRITE_EVERY_MS = 10_000;

export interface BreakerSettings {
  /** Temporary failures in a row that open the breaker (VENDOR_BREAKER_FAILURES). */
  failures: number;
  /** Seconds an open breaker skips its vendor (VENDOR_BREAKER_COOLDOWN_SECONDS). */
  cooldownSeconds: number;
}

export interface VendorHealth {
  vendor: string;
  state: BreakerState;
  consecutiveFailures: number;
  openedAt: Date | null;
  /** When an open breaker lets a job try again (null unless open). */
  retryAt: Date | null;
  lastError: string | null;
  lastFailureAt: Date | null;
  lastSuccessAt: Date | null;
  recentFailures: VendorHealthRow['recentFailures'];
}

/**
 * Each vendor's circuit breaker. The state lives in the database (`vendor_health`), not in memory:
 * API and worker processes may be separate (`npm run worker`), and what a worker learns about a vendor
 * must reach every other worker and `/api/ready` in the API process. Every change is one atomic
 * statement, so concurrent workers count each failure once. (`opossum` keeps its state per process,
 * which would give each worker its own breaker and leave the API process blind: see docs/decisions.md.)
 *
 * Half-open lets one job through at a time: the first to ask claims the trial in the database, with a
 * lease as long as the cool-down, so a trial whose worker died frees the vendor for another after that.
 * Every other job meanwhile skips the vendor as if it were open, rather than piling onto a vendor that
 * may still be down (each would wait for its own timeout before moving on).
 */
export class VendorBreaker {
  constructor(private readonly deps: { db: Database; clock: Clock; settings: BreakerSettings }) {}

  private now() {
    return new Date(this.deps.clock.now());
  }

  /** The state a row is in at `now` (an open breaker past its cool-down is half-open). */
  private health(row: VendorHealthRow | undefined, vendor: string): VendorHealth {
    if (!row) {
      return {
        vendor,
        state: 'closed',
        consecutiveFailures: 0,
        openedAt: null,
        retryAt: null,
        lastError: null,
        lastFailureAt: null,
        lastSuccessAt: null,
        recentFailures: [],
      };
    }
    const open = row.state === 'open' && row.openedAt !== null;
    const retryAt = open
      ? new Date(row.openedAt!.getTime() + this.deps.settings.cooldownSeconds * 1000)
      : null;
    const state: BreakerState = !open
      ? 'closed'
      : retryAt!.getTime() > this.deps.clock.now()
        ? 'open'
        : 'half-open';
    return {
      vendor,
      state,
      consecutiveFailures: row.consecutiveFailures,
      openedAt: row.openedAt,
      retryAt: state === 'open' ? retryAt : null,
      lastError: row.lastError,
      lastFailureAt: row.lastFailureAt,
      lastSuccessAt: row.lastSuccessAt,
      recentFailures: row.recentFailures,
    };
  }

  /** One vendor's health. */
  async get(vendor: string): Promise<VendorHealth> {
    return this.health(await repo.findVendorHealth(this.deps.db, vendor), vendor);
  }

  /** The health of each vendor named, in that order (a vendor never used reads as closed). */
  async list(vendors: readonly string[]): Promise<VendorHealth[]> {
    const rows = await repo.allVendorHealth(this.deps.db);
    return vendors.map((v) =>
      this.health(
        rows.find((r) => r.vendor === v),
        v,
      ),
    );
  }

  /**
   * Whether a job may be handed to the vendor now: always when closed, never when open, and when
   * half-open only to the one caller that claims the trial.
   */
  async allows(vendor: string): Promise<boolean> {
    const { state } = await this.get(vendor);
    if (state !== 'half-open') return state === 'closed';
    const now = this.now();
    const cooldownMs = this.deps.settings.cooldownSeconds * 1000;
    return repo.claimTrial(this.deps.db, vendor, {
      now,
      cooledSince: new Date(now.getTime() - cooldownMs),
      leaseUntil: new Date(now.getTime() + cooldownMs),
    });
  }

  /** A temporary failure or timeout of the vendor; returns its state after counting it. */
  async failed(vendor: string, error: string, jobId: string | null = null): Promise<BreakerState> {
    const row = await repo.recordFailure(this.deps.db, vendor, {
      at: this.now(),
      error: error.slice(0, 500),
      jobId,
      threshold: this.deps.settings.failures,
    });
    return this.health(row, vendor).state;
  }

  /**
   * A success closes the breaker and clears the count. The write is conditional in the database (see
   * recordSuccess): a busy healthy vendor's row is rewritten at most every SUCCESS_WRITE_EVERY_MS, yet
   * a failure any process recorded meanwhile is always cleared, so only failures in a row add up.
   */
  async succeeded(vendor: string): Promise<void> {
    const at = this.now();
    await repo.recordSuccess(this.deps.db, vendor, at, SUCCESS_WRITE_EVERY_MS);
  }

  /** An operator closes the breaker by hand; false when the vendor has no record (nothing to reset). */
  async reset(vendor: string): Promise<boolean> {
    return (await repo.resetVendor(this.deps.db, vendor, this.now())) !== undefined;
  }
}

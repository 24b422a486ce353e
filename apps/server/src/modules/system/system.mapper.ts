import type { VendorReadiness } from '@lumina/contracts';

/**
 * Readiness for load balancers: ready only when the database, the queue and file storage all answer.
 * The vendors' breakers ride along as information and never change the status.
 */
export function toReadinessView(
  checks: { database: boolean; queue: boolean; storage: boolean },
  vendors: VendorReadiness[] = [],
) {
  const ready = checks.database && checks.queue && checks.storage;
  return { status: ready ? ('ready' as const) : ('not_ready' as const), checks, vendors };
}

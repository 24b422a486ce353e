/** Readiness for load balancers: ready only when the database, the queue and file storage all answer. */
export function toReadinessView(checks: { database: boolean; queue: boolean; storage: boolean }) {
  const ready = checks.database && checks.queue && checks.storage;
  return { status: ready ? ('ready' as const) : ('not_ready' as const), checks };
}

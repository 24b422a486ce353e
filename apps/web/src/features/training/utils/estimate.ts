import type { JobView } from '@lumina/contracts';

/** Below this much progress a straight-line estimate is mostly noise, so none is shown. */
const MIN_PERCENT = 3;

/**
 * Milliseconds a running training has left, extrapolated from how long the percent so far took; null
 * while it is queued, too early to tell, or without a percentage.
 */
export function remainingMs(
  job: Pick<JobView, 'status' | 'percent' | 'started_at'>,
  now: number,
): number | null {
  if (job.status !== 'running' || job.percent === null || job.started_at === null) return null;
  if (job.percent < MIN_PERCENT || job.percent >= 100) return null;
  const elapsed = now - Date.parse(job.started_at);
  if (!(elapsed > 0)) return null;
  return (elapsed / job.percent) * (100 - job.percent);
}

/** A remaining time as people say it: under a minute, or whole minutes (rounded up). */
export function remainingMinutes(ms: number): number {
  return Math.max(1, Math.ceil(ms / 60_000));
}

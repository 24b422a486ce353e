import type { JobKind, JobStatus, JobView } from '@lumina/contracts';
import { sentenceStart, vendorLabel, vendorTitle } from '../../adapters/providers/vendors.ts';
import type { JobRow, VendorAttempt } from '../../db/schema/index.ts';
import { listed } from '../../words.ts';

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/**
 * Why a job moved between vendors, in one sentence for people: each vendor it left (with its latest
 * reason), then who made the output or where the job went. Null when it never left its first vendor.
 */
export function movedSentence(
  row: Pick<JobRow, 'provider' | 'status' | 'numImages' | 'kind'>,
  attempts: readonly VendorAttempt[],
): string | null {
  const left = new Map<string, string>();
  for (const a of attempts) {
    if (a.vendor !== row.provider && a.outcome !== 'succeeded' && a.reason) left.set(a.vendor, a.reason);
  }
  if (left.size === 0) return null;
  const why = sentenceStart(listed([...left].map(([vendor, reason]) => `${vendorLabel(vendor)} ${reason}`)));
  const to = vendorLabel(row.provider);
  if (row.status !== 'succeeded') return `${why}, so the job moved to ${to}.`;
  const what =
    row.kind === 'train'
      ? 'this model'
      : row.kind === 'animate'
        ? 'this video'
        : row.numImages > 1
          ? 'these images'
          : 'this image';
  return `${why}, so ${to} made ${what}.`;
}

/** Row → wire. `ahead` is the number of queued jobs in front (0 = next), only for queued jobs. */
export function toJobView(
  row: JobRow,
  imageIds: string[],
  ahead?: number,
  previewUrl: string | null = null,
): JobView {
  const prompt = typeof row.input.prompt === 'string' ? row.input.prompt : null;
  return {
    id: row.id,
    kind: row.kind as JobKind,
    status: row.status as JobStatus,
    model: row.modelId,
    prompt,
    cost: row.cost,
    refunded: row.refundedAt !== null,
    // Waiting in our queue: our position. Handed to a provider that queues too: the provider's position.
    queue_position:
      row.status === 'queued' ? (ahead ?? 0) + 1 : row.status === 'running' ? row.queuePosition : null,
    percent: row.status === 'succeeded' ? 100 : row.percent,
    message: row.message,
    // The live preview while the job runs (a signed URL of its latest frame); gone once the job ends.
    preview_url: row.status === 'running' ? previewUrl : null,
    error: row.error,
    image_ids: imageIds,
    num_images: row.numImages,
    purchase_id: row.purchaseId,
    made_by: row.status === 'succeeded' ? vendorTitle(row.provider) : null,
    moved: movedSentence(row, row.vendorAttempts ?? []),
    created_at: row.createdAt.toISOString(),
    started_at: iso(row.startedAt),
    finished_at: iso(row.finishedAt),
  };
}

/** A job just started → the 202 answer (`JobAccepted`). */
export function toJobAccepted(started: { job: Pick<JobRow, 'id'>; cost: number; balance: number }) {
  return { job_id: started.job.id, status: 'queued' as const, cost: started.cost, balance: started.balance };
}

import type { JobKind, JobStatus, JobView } from '@lumina/contracts';
import type { JobRow } from '../../db/schema/index.ts';

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** Row → wire. `ahead` is the number of queued jobs in front (0 = next), only for queued jobs. */
export function toJobView(row: JobRow, imageIds: string[], ahead?: number): JobView {
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
    error: row.error,
    image_ids: imageIds,
    num_images: row.numImages,
    purchase_id: row.purchaseId,
    created_at: row.createdAt.toISOString(),
    started_at: iso(row.startedAt),
    finished_at: iso(row.finishedAt),
  };
}

/** A job just started → the 202 answer (`JobAccepted`). */
export function toJobAccepted(started: { job: Pick<JobRow, 'id'>; cost: number; balance: number }) {
  return { job_id: started.job.id, status: 'queued' as const, cost: started.cost, balance: started.balance };
}

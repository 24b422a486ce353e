import type { JobView, TrainedModelView } from '@lumina/contracts';
import type { JobState } from '@/components/jobs/job-status';

/**
 * A trained model's job as the status shows it: the progress feed's view when the feed lists it, else
 * (the feed keeps recent jobs only) what the model itself says, so a training still shows and can be
 * cancelled. Null for a model with no job to show.
 */
export function trainingJob(
  model: TrainedModelView,
  jobs: readonly JobView[] | undefined,
): (JobState & Partial<Pick<JobView, 'started_at'>>) | null {
  const fromFeed = model.job_id ? jobs?.find((j) => j.id === model.job_id) : undefined;
  if (fromFeed) return fromFeed;
  if (model.job_id === null || model.status !== 'training') return null;
  return {
    id: model.job_id,
    status: 'running',
    percent: null,
    message: null,
    queue_position: null,
    error: null,
    refunded: false,
    cost: model.cost,
    image_ids: [],
  };
}

import type { TrainedModelView, TrainingSubject } from '@lumina/contracts';
import type { TrainedModelRow } from '../../db/schema/index.ts';

/** A trained model row → wire (GET /api/my_models and the train routes' answers). */
export function toTrainedModelView(row: TrainedModelRow, coverUrl: string | null): TrainedModelView {
  return {
    id: row.id,
    name: row.name,
    trigger_word: row.triggerWord,
    subject: row.subject as TrainingSubject,
    status: row.status as TrainedModelView['status'],
    trainer_model: row.trainerModelId,
    base_model: row.baseModelId,
    provider: row.provider as TrainedModelView['provider'],
    steps: row.steps,
    image_count: row.imageCount,
    set_id: row.setId,
    job_id: row.jobId,
    cover_url: coverUrl,
    cost: row.cost,
    duration_ms: row.durationMs,
    error: row.error,
    created_at: row.createdAt.toISOString(),
  };
}

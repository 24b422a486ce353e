/**
 * Placeholder, replaced by the hosted helper's branch (issue 12): Replicate's trainings API on
 * `ostris/flux-dev-lora-trainer`. Until then the Replicate trainer is unavailable and never runs.
 */
import type { TrainerProvider, TrainingRequest, TrainingResult } from '../trainer.ts';

export class ReplicateTrainer implements TrainerProvider {
  readonly name = 'replicate' as const;
  readonly available = false;

  constructor(readonly options: unknown) {}

  train(_request: TrainingRequest): Promise<TrainingResult> {
    throw new Error('Replicate training is not built in this branch');
  }

  cancel(): Promise<boolean> {
    throw new Error('Replicate training is not built in this branch');
  }
}

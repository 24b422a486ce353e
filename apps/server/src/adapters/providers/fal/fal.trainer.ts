/**
 * Placeholder, replaced by the hosted helper's branch (issue 12): fal.ai training through
 * `fal-ai/flux-lora-fast-training`. Until then the fal trainer is unavailable (its train models are
 * listed as such) and never runs.
 */
import type { TrainerProvider, TrainingRequest, TrainingResult } from '../trainer.ts';

export class FalTrainer implements TrainerProvider {
  readonly name = 'fal' as const;
  readonly available = false;

  constructor(readonly options: unknown) {}

  train(_request: TrainingRequest): Promise<TrainingResult> {
    throw new Error('fal.ai training is not built in this branch');
  }

  cancel(): Promise<boolean> {
    throw new Error('fal.ai training is not built in this branch');
  }
}

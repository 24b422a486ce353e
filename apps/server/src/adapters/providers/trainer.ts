/**
 * The training capability (issue 12), one adapter per vendor like text-to-image and the tools: fal.ai
 * (`fal-ai/flux-lora-fast-training` through the queue), Replicate (`trainings.create` on
 * `ostris/flux-dev-lora-trainer`, webhook or polling) and the local trainer (a style profile learned
 * without a neural network). The job pipeline calls `train` with the run context every vendor call
 * gets (cancel signal, progress with the trainer's logs, the submitted request id for resuming).
 */
import type { InputImage } from './image-tools.ts';
import type { ProviderName, RunContext } from './text-to-image.ts';

export type TrainingSubject = 'person' | 'style' | 'object';

export interface TrainingRequest {
  /** The trainer at the vendor: `fal-ai/flux-lora-fast-training`, `ostris/flux-dev-lora-trainer:<version>`, `local/style-trainer`. */
  providerModel: string;
  /** The training photos, already normalised by our upload pipeline. */
  images: InputImage[];
  triggerWord: string;
  subject: TrainingSubject;
  steps: number;
  /**
   * Replicate: the destination model (`owner/name`) the trainer writes its version to. Made unique per
   * training by the caller.
   */
  destination?: string;
  /** The text-to-image model the result extends (its vendor name, e.g. `local/aurora`), for the local trainer. */
  baseProviderModel: string;
}

/** What a finished training leaves: our own copy of the weights, and how to generate with them. */
export interface TrainedWeights {
  /** The LoRA file (`.safetensors`) or the local style profile (JSON), downloaded: vendor URLs expire. */
  bytes: Buffer;
  contentType: string;
  /** The file name to keep it under (`lora.safetensors`, `style-profile.json`). */
  fileName: string;
  /**
   * What generation with it calls at the vendor: `fal-ai/flux-lora` (with our copy of the weights as
   * `loras[].path`), the trained version `owner/name:version` on Replicate, or the base local model.
   */
  generateWith: string;
}

export interface TrainingResult {
  kind: 'model';
  weights: TrainedWeights;
  /** The vendor's request or training id, for the job's record. */
  requestId: string;
}

export interface TrainerProvider {
  readonly name: ProviderName;
  /** False when the vendor has no key configured: its train models are listed as unavailable. */
  readonly available: boolean;
  train(request: TrainingRequest, ctx: RunContext): Promise<TrainingResult>;
  /** Asks the vendor to cancel; true when it confirms the training had not started. */
  cancel(requestId: string, providerModel: string): Promise<boolean>;
}

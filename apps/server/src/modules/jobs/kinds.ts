import type { z } from 'zod';
import type { ToolResult } from '../../adapters/providers/image-tools.ts';
import type { RunContext } from '../../adapters/providers/text-to-image.ts';
import type { TrainingResult } from '../../adapters/providers/trainer.ts';
import type { DbOrTx } from '../../db/client.ts';
import type { JobRow } from '../../db/schema/index.ts';
import type { VendorRoute } from '../models/model-catalogue.ts';

/** What a job's outputs become: image rows in the gallery, one video, or a trained model. */
export type OutputType = 'images' | 'video' | 'model';

/** What a provider call returns: images or a video (text-to-image, tools), or trained weights. */
export type JobResult = ToolResult | TrainingResult;

/** What every output of a job records about how it was made. */
export interface OutputFields {
  prompt: string | null;
  negativePrompt: string | null;
  loraScale: number | null;
  promptStrength: number | null;
  /** How a tool output was made (`ToolRecipe`), or null. */
  recipe: Record<string, unknown> | null;
  /** The image a video was made from, if any. */
  sourceImageId: string | null;
}

/** One job's provider call, built from its stored input. */
export interface ProviderCall {
  run(ctx: RunContext): Promise<JobResult>;
  /** Asks the vendor to cancel a request of this call; true when it had not started. */
  cancel(requestId: string): Promise<boolean>;
}

/**
 * A kind of paid job (text-to-image, each tool; training and product runs next): everything the
 * pipeline needs to know about it, so the pipeline itself never asks which kind a job is.
 */
export interface JobKind {
  /** The `jobs.kind` value. */
  kind: string;
  /** What is stored in `jobs.input` (checked when a job is queued). */
  input: z.ZodType;
  output: OutputType;
  /**
   * The most one try may take, when it is longer than the queue's default (GENERATION_TIMEOUT_SECONDS):
   * a hosted training runs for up to hours, and a try cut short would only poll the same request again.
   */
  timeoutSeconds?: number;
  /**
   * The provider call for a job, from its stored input (and source images). Throws AppError or
   * ProviderError when it cannot run: the job then fails and is refunded.
   */
  call(job: JobRow): Promise<ProviderCall>;
  /**
   * The vendors that may run this job, in failover order (the model's own, then its configured
   * alternates). The pipeline moves a job along this list when its vendor fails for a while; kinds
   * without it (training, a trained model) stay on the vendor recorded on the job.
   */
  routes?(job: JobRow): VendorRoute[];
  /** Asks the vendor to stop a job's recorded request without building its call (cancel, dead letter). */
  cancel(job: JobRow, requestId: string): Promise<boolean>;
  /** What each output records about how it was made. */
  describe(job: JobRow): OutputFields;
  /**
   * Called in the transaction that ends a job as failed or cancelled (however it ends: worker, cancel,
   * dead letter), for kinds that keep a row of their own in step (a training's model).
   */
  ended?(
    tx: DbOrTx,
    job: JobRow,
    end: { status: 'failed' | 'cancelled'; error: string | null },
  ): Promise<void>;
}

/** The table of job kinds. */
export class JobKinds {
  private readonly byKind: ReadonlyMap<string, JobKind>;

  constructor(kinds: readonly JobKind[]) {
    this.byKind = new Map(kinds.map((k) => [k.kind, k]));
  }

  get(kind: string): JobKind {
    const entry = this.byKind.get(kind);
    if (!entry) throw new Error(`No job kind "${kind}" is registered`);
    return entry;
  }

  /** The kinds whose outputs are of this type (e.g. which jobs are videos). */
  withOutput(type: OutputType): string[] {
    return [...this.byKind.values()].filter((k) => k.output === type).map((k) => k.kind);
  }
}

/**
 * Follows jobs to their end for something bigger than one job (a photo shoot's purchase: training, then
 * its generations). Told inside the transaction that ends the job, however it ends (worker, cancel,
 * dead letter), so the next stage starts, or the purchase fails and is refunded, in the same commit:
 * a crash between the two cannot happen. Jobs without a `purchaseId` are none of its business.
 */
export interface JobFollower {
  succeeded(tx: DbOrTx, job: JobRow): Promise<void>;
  ended(
    tx: DbOrTx,
    job: JobRow,
    end: { status: 'failed' | 'cancelled'; error: string | null },
  ): Promise<void>;
}

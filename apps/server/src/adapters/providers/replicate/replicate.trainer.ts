import { randomBytes } from 'node:crypto';
import type { default as Replicate, Training } from 'replicate';
import type { Config } from '../../../config.ts';
import type { RunScope } from '../hosted.ts';
import { TRANSIENT_MESSAGE, VendorRequestEndedError, downloadWeights, trainingZip } from '../hosted.ts';
import { ProviderError, type RunContext } from '../text-to-image.ts';
import type { TrainerProvider, TrainingRequest, TrainingResult } from '../trainer.ts';
import {
  apiStatus,
  cancelAtReplicate,
  pollUntilDone,
  runAtReplicate,
  replicateClient,
  replicateOptions,
  type ReplicateOptions,
  type ReplicateOverrides,
} from './replicate.text-to-image.ts';

/**
 * Training a FLUX LoRA on Replicate (`ostris/flux-dev-lora-trainer`) through the official client:
 * the photos zipped and uploaded through the Files API → the destination model created when missing
 * (trainings write a new version into a model we own) → `trainings.create` (with `webhook`, completion
 * only, when the pipeline has a webhook URL) → `onSubmitted(training.id)` → poll `trainings.get` with
 * progress from the logs → the `weights` file downloaded at once (Replicate deletes outputs after about
 * an hour). Generation then runs the trained version `owner/name:version`. A retried job passes
 * `resumeRequestId` and we poll that training instead of paying for another.
 * See docs/reference/providers/replicate.md §4, §5.
 */

export interface ReplicateTrainerOptions extends ReplicateOptions {
  /**
   * `REPLICATE_TRAINING_OWNER`: the Replicate user or organisation the destination models are created
   * under, for requests whose `destination` names no owner (the token must be allowed to create there).
   */
  trainingOwner?: string;
}

/** A training runs for 20–40 minutes on Replicate (1000 steps on an H100), plus the queue and boot. */
export const REPLICATE_TRAINING_TIMEOUT_MS = 3 * 60 * 60 * 1000;

const VENDOR = 'replicate';

export class ReplicateTrainer implements TrainerProvider {
  readonly name = 'replicate';
  readonly available = true;
  private readonly replicate: Replicate;
  private readonly fetchFn: typeof fetch;
  private readonly pollIntervalMs: number;
  private readonly timeoutMs: number;

  constructor(private readonly options: ReplicateTrainerOptions) {
    this.fetchFn = options.fetch ?? fetch;
    this.replicate = replicateClient(options, this.fetchFn);
    this.pollIntervalMs = options.pollIntervalMs ?? 1000;
    this.timeoutMs = options.timeoutMs ?? REPLICATE_TRAINING_TIMEOUT_MS;
  }

  async train(request: TrainingRequest, ctx: RunContext): Promise<TrainingResult> {
    return runAtReplicate(ctx, this.timeoutMs, {
      create: (signal) => this.create(request, ctx, signal),
      follow: (id, scope) => this.follow(id, ctx, scope),
      cancel: (id) => this.replicate.trainings.cancel(id),
    });
  }

  cancel(requestId: string): Promise<boolean> {
    return cancelAtReplicate(() => this.replicate.trainings.cancel(requestId));
  }

  private async create(request: TrainingRequest, ctx: RunContext, signal: AbortSignal): Promise<Training> {
    const trainer = trainerVersion(request.providerModel);
    const destination = this.destinationOf(request);
    await this.ensureModel(destination, signal);
    // `trainings.create` sends its input as given (unlike predictions it uploads no files), so the
    // zip goes through the Files API first.
    const file = (await this.replicate.files.create(trainingZip(request.images), {}, { signal })) as {
      urls: { get: string };
    };
    return this.replicate.trainings.create(trainer.owner, trainer.name, trainer.version, {
      destination: `${destination.owner}/${destination.name}`,
      input: {
        input_images: file.urls.get,
        trigger_word: request.triggerWord,
        steps: request.steps,
      },
      ...(ctx.webhookUrl ? { webhook: ctx.webhookUrl, webhook_events_filter: ['completed' as const] } : {}),
      signal,
    });
  }

  private async follow(trainingId: string, ctx: RunContext, scope: RunScope): Promise<TrainingResult> {
    const training = await pollUntilDone(
      'training',
      trainingId,
      (signal) => this.replicate.trainings.get(trainingId, { signal }),
      ctx,
      scope.signal,
      this.pollIntervalMs,
    );
    const { version, weights } = training.output ?? {};
    if (typeof version !== 'string' || typeof weights !== 'string') {
      throw new VendorRequestEndedError(
        `replicate training ${trainingId} succeeded without a version and weights`,
        'transient',
        TRANSIENT_MESSAGE,
      );
    }
    const file = await downloadWeights(weights, this.fetchFn, scope.signal, VENDOR);
    return {
      kind: 'model',
      weights: {
        bytes: file.bytes,
        contentType: file.contentType,
        fileName: /\.(tar|safetensors|zip)$/.test(file.fileName) ? file.fileName : 'lora.tar',
        generateWith: version,
      },
      requestId: trainingId,
    };
  }

  /** `owner/name`, or a bare name under `trainingOwner`, or a fresh name there when none was given. */
  private destinationOf(request: TrainingRequest): { owner: string; name: string } {
    const given = request.destination ?? `lumina-${randomBytes(6).toString('hex')}`;
    const [owner, name] = given.includes('/') ? given.split('/', 2) : [this.options.trainingOwner, given];
    if (!owner || !name) {
      throw new ProviderError(
        `replicate: no owner for the destination model "${given}" (REPLICATE_TRAINING_OWNER is unset)`,
        'rejected',
        'Training on Replicate is not set up on this server. Please choose another trainer.',
      );
    }
    return { owner, name };
  }

  /** Trainings write into an existing model we own: create it (private) unless a retry already did. */
  private async ensureModel(model: { owner: string; name: string }, signal: AbortSignal): Promise<void> {
    try {
      await this.replicate.models.get(model.owner, model.name, { signal });
      return;
    } catch (error) {
      if (apiStatus(error) !== 404) throw error;
    }
    // The hardware is what the model's predictions would run on when made without a version; runs of
    // the trained version pick their own, so the cheapest is right.
    await this.replicate.models.create(model.owner, model.name, {
      visibility: 'private',
      hardware: 'cpu',
      description: 'A FLUX LoRA trained by Lumina',
      signal,
    });
  }
}

/** `ostris/flux-dev-lora-trainer:<version>`: trainings are created on one fixed trainer version. */
function trainerVersion(providerModel: string): { owner: string; name: string; version: string } {
  const match = /^([\w.-]+)\/([\w.-]+):([0-9a-f]{64})$/.exec(providerModel);
  if (!match) {
    throw new ProviderError(
      `replicate: trainer "${providerModel}" is not owner/name:<64-hex version>`,
      'rejected',
      'This trainer is not set up correctly. Please choose another trainer.',
    );
  }
  return { owner: match[1]!, name: match[2]!, version: match[3]! };
}

/** What a caller may set over the options from config (the owner, tests, the worker's polling). */
export type ReplicateTrainerOverrides = ReplicateOverrides & Pick<ReplicateTrainerOptions, 'trainingOwner'>;

/**
 * The Replicate trainer from config, or undefined when `REPLICATE_API_TOKEN` is unset. Its deadline is
 * the training one, not the generation deadline `replicateOptions` takes from config, unless `overrides`
 * set another.
 */
export function createReplicateTrainer(
  config: Pick<Config, 'providers'>,
  overrides?: ReplicateTrainerOverrides,
) {
  const options = replicateOptions(config, { timeoutMs: REPLICATE_TRAINING_TIMEOUT_MS, ...overrides });
  return options && new ReplicateTrainer(options);
}

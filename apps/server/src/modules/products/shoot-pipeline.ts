import { TRAINING_MAX_PHOTOS, TRAINING_MIN_PHOTOS, type AspectRatio } from '@lumina/contracts';
import type { Mailer } from '../../adapters/mail/mailer.ts';
import type { Database, DbOrTx, Tx } from '../../db/client.ts';
import type { JobRow, PurchaseRow } from '../../db/schema/index.ts';
import { AppError } from '../../errors.ts';
import type { Logger } from '../../logger.ts';
import type { JobQueue } from '../../queue/queue.ts';
import type { GenerationService } from '../generation/generation.service.ts';
import type { NewPaidJob, JobsService } from '../jobs/jobs.service.ts';
import type { JobFollower } from '../jobs/kinds.ts';
import type { ProgressBus } from '../jobs/progress.bus.ts';
import { TRAIN_KIND } from '../training/train.kind.ts';
import { findModel, setSummary } from '../training/training.repository.ts';
import type { TrainingService } from '../training/training.service.ts';
import { generateTriggerWord } from '../training/trigger-word.ts';
import type { PhotoShootProduct } from './product-catalogue.ts';
import type { PurchaseRefunds, ShootPipeline } from './purchase-pipeline.ts';
import * as repo from './shoot-pipeline.repository.ts';
import { shootReadyEmail } from './shoot-ready-email.ts';

/** Where a purchase may start from: just paid, or waiting for its photos. */
const STARTABLE = ['pending_payment', 'waiting_for_photos'] as const;
const ENDED = new Set(['failed', 'cancelled']);

/**
 * Follows the jobs of purchases: when one ends (however it ends), a `purchase.advance` message is
 * queued in the same transaction, so the purchase's next step cannot be lost to a crash; the step itself
 * runs in a transaction of its own (`ShootPipelineService.advance`), never inside the worker's.
 */
export function purchaseFollower(queue: Pick<JobQueue, 'send'>): JobFollower {
  const tell = async (tx: DbOrTx, job: JobRow) => {
    if (!job.purchaseId) return;
    await queue.send('purchase.advance', { purchaseId: job.purchaseId }, { tx: tx as Tx });
  };
  return { succeeded: tell, ended: tell };
}

/**
 * What a stage's failure tells the person: the job's own words without its note about refunded
 * credits (a stage job costs nothing; the purchase is refunded as a whole, and says so).
 */
function failureReason(job: JobRow): string {
  const stage = job.kind === TRAIN_KIND ? 'Training' : 'Generation';
  if (job.status === 'cancelled') return `${stage} failed: it was cancelled.`;
  const words = (job.error ?? '').replace(/\s*Your credits were refunded\.?/gi, '').trim();
  return `${stage} failed: ${words || 'the provider gave no reason.'}`;
}

/** `count` images in jobs of at most `max` each (4, 4, 2 for 10 at most 4). */
export function splitCount(count: number, max: number): number[] {
  const parts: number[] = [];
  for (let left = count; left > 0; left -= max) parts.push(Math.min(left, max));
  return parts;
}

export interface ShootPipelineDeps {
  db: Database;
  jobs: Pick<JobsService, 'enqueue' | 'wake' | 'finish'>;
  bus: ProgressBus;
  training: Pick<TrainingService, 'plan' | 'start'>;
  generation: Pick<GenerationService, 'prepare' | 'model'>;
  refunds: PurchaseRefunds;
  mailer: Mailer;
  /** The web app's address: the email links to `${webUrl}/my-products`. */
  webUrl: string;
  log: Logger;
}

/**
 * Delivers a paid photo shoot through the job pipeline: a training job of the buyer's photos, then a
 * text-to-image job per prompt with the trained model, then the delivery and its email. Every stage's
 * job costs nothing (the purchase paid); a stage that fails fails the purchase and refunds it once
 * (PurchaseRefunds). Each step is a conditional status change, so repeating one changes nothing.
 */
export class ShootPipelineService implements ShootPipeline {
  constructor(private readonly deps: ShootPipelineDeps) {}

  async start(tx: DbOrTx, given: PurchaseRow): Promise<void> {
    const { training, bus, refunds } = this.deps;
    const purchase = await repo.lockPurchase(tx, given.id);
    if (!purchase || purchase.kind !== 'photo_shoot') return;
    if (!(STARTABLE as readonly string[]).includes(purchase.status)) return;
    const product = purchase.product as unknown as PhotoShootProduct;
    const set = purchase.setId ? await setSummary(tx, purchase.userId, purchase.setId) : undefined;
    if (!set || set.photoCount < TRAINING_MIN_PHOTOS || set.photoCount > TRAINING_MAX_PHOTOS) {
      // The person adds (or trims) photos, then the buying side calls start again.
      await repo.movePurchase(tx, purchase.id, STARTABLE, { status: 'waiting_for_photos' });
      bus.changed(purchase.userId);
      return;
    }
    let plan;
    try {
      plan = await training.plan(tx, purchase.userId, {
        setId: purchase.setId!,
        trainer: product.shoot.trainer,
        steps: product.shoot.steps,
      });
    } catch (err) {
      // The operator's product names a trainer or steps this server cannot run: nothing will ever
      // train it, so give the money back now rather than leave the purchase waiting.
      if (!(err instanceof AppError)) throw err;
      await refunds.fail(tx, purchase.id, `Training could not start: ${err.userMessage}`);
      bus.changed(purchase.userId);
      return;
    }
    const { row } = await training.start(
      plan,
      {
        name: `${product.name} — ${new Date().toISOString().slice(0, 10)}`,
        triggerWord: generateTriggerWord(),
        subject: product.shoot.subject,
        cost: 0,
        reason: 'photo shoot',
        purchaseId: purchase.id,
      },
      { tx: tx as Tx },
    );
    await repo.movePurchase(tx, purchase.id, STARTABLE, { status: 'training', trainedModelId: row.id });
    // The caller wakes the queue after its commit (ShootStarted), so the job starts then.
    bus.changed(purchase.userId);
  }

  /**
   * Moves a purchase to wherever its jobs say it is (the `purchase.advance` handler): a stage job that
   * failed or was cancelled fails it; a finished training starts the generations; finished
   * generations deliver it. Safe to run any number of times, concurrently too.
   */
  async advance(purchaseId: string) {
    const { db } = this.deps;
    const purchase = await repo.findPurchase(db, purchaseId);
    if (!purchase) return { skipped: 'missing' };
    if (purchase.status === 'ready') return this.notify(purchase);
    if (purchase.status !== 'training' && purchase.status !== 'generating') {
      return { skipped: purchase.status };
    }
    const jobs = await repo.purchaseJobs(db, purchaseId);
    const ended = jobs.find((j) => ENDED.has(j.status));
    if (ended) return this.fail(purchase, failureReason(ended));
    if (purchase.status === 'training') {
      const train = jobs.find((j) => j.kind === TRAIN_KIND);
      if (train?.status !== 'succeeded') return { waiting: 'training' };
      return this.generate(purchase);
    }
    const generations = jobs.filter((j) => j.kind !== TRAIN_KIND);
    if (!generations.length || generations.some((j) => j.status !== 'succeeded')) {
      return { waiting: 'generating' };
    }
    const delivered = await db.transaction((tx) =>
      repo.movePurchase(tx, purchaseId, ['generating'], { status: 'ready', deliveredAt: new Date() }),
    );
    if (!delivered) return { skipped: 'moved on elsewhere' };
    this.deps.bus.changed(purchase.userId);
    return this.notify(delivered);
  }

  /**
   * The dead letter of `purchase.advance`: every try failed, so the purchase would stay training or
   * generating forever. Fails and refunds it once and stops its jobs; one that moved on is left alone.
   */
  async abandon(purchaseId: string) {
    const purchase = await repo.findPurchase(this.deps.db, purchaseId);
    if (!purchase || (purchase.status !== 'training' && purchase.status !== 'generating')) {
      return { skipped: purchase?.status ?? 'missing' };
    }
    return this.fail(purchase, 'We could not finish your photo shoot.');
  }

  /** Training finished: one text-to-image job per prompt (split by the model's limit), at no cost. */
  private async generate(purchase: PurchaseRow) {
    const { db, generation, jobs, bus } = this.deps;
    const product = purchase.product as unknown as PhotoShootProduct;
    const model = purchase.trainedModelId ? await findModel(db, purchase.trainedModelId) : undefined;
    if (!model || model.status !== 'ready') {
      return this.fail(
        purchase,
        'Generation failed: the trained model was deleted before the photos were made.',
      );
    }
    // Prepared (checked, recipe, weights) before the transaction: the same path as any generation.
    let planned: NewPaidJob[];
    try {
      const { supports } = await generation.model(purchase.userId, model.id);
      planned = [];
      for (const shot of product.shoot.prompts) {
        for (const numImages of splitCount(shot.count, supports.maxImages)) {
          planned.push(
            await generation.prepare(purchase.userId, {
              text: shot.prompt.replaceAll('{trigger}', model.triggerWord),
              negativeText: shot.negativePrompt,
              model: model.id,
              aspectRatio: shot.aspectRatio as AspectRatio,
              numImages,
            }),
          );
        }
      }
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      return this.fail(purchase, `Generation could not start: ${err.userMessage}`);
    }
    const total = planned.reduce((n, j) => n + (j.numImages ?? 0), 0);
    const started = await db.transaction(async (tx) => {
      // Only the first advance past training gets here; any other finds the status moved on.
      const moved = await repo.movePurchase(tx, purchase.id, ['training'], {
        status: 'generating',
        imagesTotal: total,
      });
      if (!moved) return false;
      for (const job of planned) {
        await jobs.enqueue({ ...job, cost: 0, reason: 'photo shoot', purchaseId: purchase.id }, undefined, {
          tx,
        });
      }
      return true;
    });
    if (!started) return { skipped: 'moved on elsewhere' };
    jobs.wake();
    bus.changed(purchase.userId);
    return { generating: planned.length };
  }

  /** Fails and refunds the purchase once, then stops its other jobs (nobody will receive their images). */
  private async fail(purchase: PurchaseRow, reason: string) {
    const { db, refunds, jobs, bus } = this.deps;
    const failed = await db.transaction((tx) => refunds.fail(tx, purchase.id, reason));
    bus.changed(purchase.userId);
    for (const job of await repo.purchaseJobs(db, purchase.id)) {
      if (job.status === 'queued' || job.status === 'running') {
        await jobs.finish(job, 'cancelled', { refund: false, error: 'The photo shoot failed: ' + reason });
      }
    }
    return { failed, reason };
  }

  /** The "your photo shoot is ready" email, once: claimed first, given back if sending fails (retried). */
  private async notify(purchase: PurchaseRow) {
    const { db, mailer, webUrl, log } = this.deps;
    if (purchase.notifiedAt) return { notified: 'already' };
    const to = await repo.userEmail(db, purchase.userId);
    if (!to) return { notified: 'no email address' };
    if (!(await repo.claimNotification(db, purchase.id))) return { notified: 'already' };
    const product = purchase.product as unknown as PhotoShootProduct;
    try {
      await mailer.send(
        shootReadyEmail({
          to,
          productName: product.name,
          images: purchase.imagesTotal,
          link: `${webUrl}/my-products`,
        }),
      );
    } catch (err) {
      log.warn({ err, purchaseId: purchase.id }, 'shoot-ready email failed; will retry');
      await repo.releaseNotification(db, purchase.id);
      throw err;
    }
    return { notified: true };
  }
}

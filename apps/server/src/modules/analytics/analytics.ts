import { createHash } from 'node:crypto';
import { PostHog } from 'posthog-node';
import type { Config } from '../../config.ts';
import type { JobRow, PaymentRow } from '../../db/schema/index.ts';
import type { Logger } from '../../logger.ts';

/**
 * Server-side product analytics (docs/spec/SPEC.md §1 and §9): the events the browser cannot see for
 * certain. Without POSTHOG_KEY this is a no-op and nothing leaves the server. Person ids are our user
 * ids, the same the web app identifies with, so server and browser events land on one person.
 */
export interface Analytics {
  signedUp(user: { id: string; email: string | null }, method: string): void;
  purchaseCompleted(payment: PaymentRow): void;
  /** A job that ended succeeded or failed; the prompt only when POSTHOG_CAPTURE_PROMPTS is on. */
  jobEnded(job: JobRow): void;
  /** Sends what is queued (shutdown, tests). */
  flush(): Promise<void>;
  shutdown(): Promise<void>;
}

/**
 * A stable event uuid from its natural key: PostHog keeps one event per uuid, so a redelivered job or
 * a webhook replay that reports the same outcome again does not count twice.
 */
export function eventUuid(key: string): string {
  const hex = createHash('sha256').update(key).digest('hex');
  // Shaped as a version 5 (name-based) UUID.
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-${((parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16)}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

function promptOf(input: Record<string, unknown>): string | undefined {
  for (const key of ['prompt', 'description']) {
    const value = input[key];
    if (typeof value === 'string' && value) return value;
  }
  return undefined;
}

export class NoAnalytics implements Analytics {
  signedUp() {}
  purchaseCompleted() {}
  jobEnded() {}
  async flush() {}
  async shutdown() {}
}

export class PostHogAnalytics implements Analytics {
  private readonly client: PostHog;

  constructor(
    private readonly settings: NonNullable<Config['analytics']>,
    private readonly log: Logger,
    options: { flushAt?: number; flushInterval?: number } = {},
  ) {
    this.client = new PostHog(settings.key, {
      host: settings.host,
      flushAt: options.flushAt ?? 20,
      flushInterval: options.flushInterval ?? 10_000,
      // Our own server's address says nothing about the person.
      disableGeoip: true,
    });
    this.client.on('error', (err: unknown) => this.log.warn({ err }, 'analytics: PostHog capture failed'));
  }

  signedUp(user: { id: string; email: string | null }, method: string) {
    this.client.capture({
      distinctId: user.id,
      event: 'user signed up',
      uuid: eventUuid(`signup:${user.id}`),
      properties: { method, ...(user.email ? { $set: { email: user.email } } : {}) },
    });
  }

  purchaseCompleted(payment: PaymentRow) {
    this.client.capture({
      distinctId: payment.userId,
      event: 'purchase completed',
      uuid: eventUuid(`purchase:${payment.id}`),
      properties: {
        payment_id: payment.id,
        package_id: payment.packageId,
        credits: payment.credits,
        amount_cents: payment.amountCents,
        currency: payment.currency,
      },
    });
  }

  jobEnded(job: JobRow) {
    if (job.status !== 'succeeded' && job.status !== 'failed') return;
    const prompt = this.settings.capturePrompts ? promptOf(job.input) : undefined;
    this.client.capture({
      distinctId: job.userId,
      event: job.status === 'succeeded' ? 'job succeeded' : 'job failed',
      uuid: eventUuid(`job:${job.id}:${job.status}`),
      properties: {
        job_id: job.id,
        tool: job.kind,
        model: job.modelId,
        provider: job.provider,
        cost: job.cost,
        num_images: job.numImages,
        refunded: job.refundedAt !== null,
        ...(job.startedAt && job.finishedAt
          ? { duration_ms: job.finishedAt.getTime() - job.startedAt.getTime() }
          : {}),
        ...(prompt !== undefined ? { prompt } : {}),
      },
    });
  }

  async flush() {
    await this.client.flush();
  }

  async shutdown() {
    await this.client.shutdown(5000);
  }
}

export function createAnalytics(config: Config, log: Logger): Analytics {
  return config.analytics ? new PostHogAnalytics(config.analytics, log) : new NoAnalytics();
}

import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Config } from '../../../config.ts';
import { headerValue, type WebhookHeaders } from '../webhook-headers.ts';

/**
 * Verifies Replicate webhooks (docs/reference/providers/replicate.md §6, the Standard Webhooks scheme):
 * `webhook-signature` holds `v1,<base64 HMAC-SHA256(key, "${webhook-id}.${webhook-timestamp}.${raw body}")>`
 * entries, the key being the base64 after `whsec_`. We do this with node:crypto instead of the SDK's
 * `validateWebhook` because that compares with `===` (not constant-time) and does not check the
 * timestamp; the tests check both agree. Webhooks are hints: the job re-reads the prediction.
 */

export interface ReplicateWebhookEvent {
  /** `webhook-id`: stable across retries of one delivery (deduplicate on it). */
  webhookId: string;
  predictionId: string;
  status: 'starting' | 'processing' | 'succeeded' | 'failed' | 'canceled' | 'aborted';
  output: unknown;
  error?: string;
}

export class WebhookVerificationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WebhookVerificationError';
  }
}

export interface ReplicateWebhookVerifierOptions {
  /** `whsec_…` from GET /v1/webhooks/default/secret. */
  secret: string;
  /** Largest allowed |now − webhook-timestamp|. Default 300 s. */
  toleranceSeconds?: number;
  now?: () => number;
}

const STATUSES = new Set(['starting', 'processing', 'succeeded', 'failed', 'canceled', 'aborted']);

export class ReplicateWebhookVerifier {
  private readonly key: Buffer;
  private readonly toleranceSeconds: number;
  private readonly now: () => number;

  constructor(options: ReplicateWebhookVerifierOptions) {
    if (!options.secret.startsWith('whsec_'))
      throw new Error('a Replicate webhook secret starts with whsec_');
    this.key = Buffer.from(options.secret.slice('whsec_'.length), 'base64');
    this.toleranceSeconds = options.toleranceSeconds ?? 300;
    this.now = options.now ?? Date.now;
  }

  /** Verifies the signature on the raw body and parses it; throws WebhookVerificationError otherwise. */
  verify(headers: WebhookHeaders, rawBody: Buffer | string): ReplicateWebhookEvent {
    const id = headerValue(headers, 'webhook-id');
    const timestamp = headerValue(headers, 'webhook-timestamp');
    const signatures = headerValue(headers, 'webhook-signature');
    if (!id || !timestamp || !signatures)
      throw new WebhookVerificationError('missing webhook signature headers');
    if (!/^\d+$/.test(timestamp)) throw new WebhookVerificationError('bad webhook timestamp');
    if (Math.abs(this.now() / 1000 - Number(timestamp)) > this.toleranceSeconds) {
      throw new WebhookVerificationError('webhook timestamp outside the allowed window');
    }
    const body = typeof rawBody === 'string' ? Buffer.from(rawBody, 'utf8') : rawBody;
    const expected = createHmac('sha256', this.key).update(`${id}.${timestamp}.`).update(body).digest();
    const valid = signatures.split(' ').some((entry) => {
      const [version, value] = entry.split(',', 2);
      if (version !== 'v1' || !value) return false;
      const given = Buffer.from(value, 'base64');
      return given.length === expected.length && timingSafeEqual(given, expected);
    });
    if (!valid) throw new WebhookVerificationError('webhook signature does not verify');
    return parseReplicateWebhook(id, body);
  }
}

/** Parses a (verified) Replicate webhook body: the prediction JSON. */
export function parseReplicateWebhook(webhookId: string, body: Buffer | string): ReplicateWebhookEvent {
  let json: Record<string, unknown>;
  try {
    json = JSON.parse(body.toString()) as Record<string, unknown>;
  } catch {
    throw new WebhookVerificationError('webhook body is not JSON');
  }
  if (typeof json.id !== 'string' || typeof json.status !== 'string' || !STATUSES.has(json.status)) {
    throw new WebhookVerificationError('webhook body is not a prediction');
  }
  return {
    webhookId,
    predictionId: json.id,
    status: json.status as ReplicateWebhookEvent['status'],
    output: json.output ?? null,
    ...(typeof json.error === 'string' ? { error: json.error } : {}),
  };
}

/** The verifier for `POST /api/webhooks/replicate`, or undefined without `REPLICATE_WEBHOOK_SECRET`. */
export function createReplicateWebhookVerifier(
  config: Pick<Config, 'providers'>,
  overrides: Omit<ReplicateWebhookVerifierOptions, 'secret'> = {},
): ReplicateWebhookVerifier | undefined {
  const secret = config.providers.replicate.webhookSecret;
  return secret ? new ReplicateWebhookVerifier({ secret, ...overrides }) : undefined;
}

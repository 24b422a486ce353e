import type { Config } from '../../../config.ts';
import { createHash, createPublicKey, verify, type JsonWebKey, type KeyObject } from 'node:crypto';
import { headerValue, type WebhookHeaders } from '../webhook-headers.ts';

/**
 * Verifies fal.ai webhooks (docs/reference/providers/fal.md §9). fal signs
 * `request_id \n user_id \n timestamp \n hex(sha256(raw body))` with Ed25519; the public keys are a JWKS
 * at a well-known URL (configurable so tests serve their own). `@fal-ai/client` ships no helper.
 * Webhooks are hints: the route verifies, enqueues, and the job re-reads the truth from fal.
 */

export const FAL_JWKS_URL = 'https://rest.alpha.fal.ai/.well-known/jwks.json';

export interface FalWebhookEvent {
  requestId: string;
  /** `OK` when the request produced output, `ERROR` when it failed. */
  status: 'OK' | 'ERROR';
  /** The model output (OK) or the error body (ERROR); null when fal could not serialize it. */
  payload: unknown;
  /** fal's error summary for ERROR (e.g. "Invalid status code: 422"). */
  error?: string;
}

export class WebhookVerificationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WebhookVerificationError';
  }
}

export interface FalWebhookVerifierOptions {
  jwksUrl?: string;
  /** Largest allowed |now − timestamp|. Default 300 s. */
  toleranceSeconds?: number;
  /** How long fetched keys are trusted. Default 24 h. */
  cacheTtlMs?: number;
  fetch?: typeof fetch;
  /** Clock in ms (tests). */
  now?: () => number;
}

/** Keys stay cached; when a signature fails under keys older than this we refetch once (rotation). */
const REFRESH_AFTER_MS = 5 * 60 * 1000;
/**
 * After a failed fetch of the keys, webhooks are refused without fetching again for this long: anyone
 * can send well-formed headers, and each must not become a request to fal while its key set is down.
 * Short, because a refused webhook only delays a result the poller fetches anyway.
 */
export const FAILED_FETCH_RETRY_MS = 30_000;

export class FalWebhookVerifier {
  private readonly jwksUrl: string;
  private readonly toleranceSeconds: number;
  private readonly cacheTtlMs: number;
  private readonly fetchFn: typeof fetch;
  private readonly now: () => number;
  private cache?: { keys: KeyObject[]; fetchedAt: number };
  private failure?: { error: unknown; at: number };
  private inflight?: Promise<KeyObject[]>;

  constructor(options: FalWebhookVerifierOptions = {}) {
    this.jwksUrl = options.jwksUrl ?? FAL_JWKS_URL;
    this.toleranceSeconds = options.toleranceSeconds ?? 300;
    this.cacheTtlMs = options.cacheTtlMs ?? 24 * 60 * 60 * 1000;
    this.fetchFn = options.fetch ?? fetch;
    this.now = options.now ?? Date.now;
  }

  /** Verifies the signature on the raw body and parses it; throws WebhookVerificationError otherwise. */
  async verify(headers: WebhookHeaders, rawBody: Buffer | string): Promise<FalWebhookEvent> {
    const requestId = headerValue(headers, 'x-fal-webhook-request-id');
    const userId = headerValue(headers, 'x-fal-webhook-user-id');
    const timestamp = headerValue(headers, 'x-fal-webhook-timestamp');
    const signatureHex = headerValue(headers, 'x-fal-webhook-signature');
    if (!requestId || !userId || !timestamp || !signatureHex) {
      throw new WebhookVerificationError('missing fal webhook signature headers');
    }
    if (!/^\d+$/.test(timestamp)) throw new WebhookVerificationError('bad webhook timestamp');
    if (Math.abs(this.now() / 1000 - Number(timestamp)) > this.toleranceSeconds) {
      throw new WebhookVerificationError('webhook timestamp outside the allowed window');
    }
    if (!/^[0-9a-f]{128}$/i.test(signatureHex))
      throw new WebhookVerificationError('malformed webhook signature');

    const body = typeof rawBody === 'string' ? Buffer.from(rawBody, 'utf8') : rawBody;
    const message = Buffer.from(
      [requestId, userId, timestamp, createHash('sha256').update(body).digest('hex')].join('\n'),
      'utf8',
    );
    const signature = Buffer.from(signatureHex, 'hex');
    const verifies = (keys: KeyObject[]) => keys.some((key) => verify(null, message, key, signature));

    let keys = await this.keys(false);
    if (!verifies(keys)) {
      if (this.now() - (this.cache?.fetchedAt ?? 0) < REFRESH_AFTER_MS) {
        throw new WebhookVerificationError('webhook signature does not verify');
      }
      keys = await this.keys(true);
      if (!verifies(keys)) throw new WebhookVerificationError('webhook signature does not verify');
    }
    return parseFalWebhook(body, requestId);
  }

  private async keys(refresh: boolean): Promise<KeyObject[]> {
    if (!refresh && this.cache && this.now() - this.cache.fetchedAt < this.cacheTtlMs) return this.cache.keys;
    if (this.failure && this.now() - this.failure.at < FAILED_FETCH_RETRY_MS) throw this.failure.error;
    this.inflight ??= this.fetchKeys()
      .then(
        (keys) => {
          this.failure = undefined;
          return keys;
        },
        (error: unknown) => {
          this.failure = { error, at: this.now() };
          throw error;
        },
      )
      .finally(() => {
        this.inflight = undefined;
      });
    return this.inflight;
  }

  private async fetchKeys(): Promise<KeyObject[]> {
    const res = await this.fetchFn(this.jwksUrl, { headers: { accept: 'application/json' } });
    if (!res.ok) throw new Error(`fetching fal webhook keys from ${this.jwksUrl}: HTTP ${res.status}`);
    const { keys } = (await res.json()) as { keys?: JsonWebKey[] };
    const parsed = (keys ?? [])
      .filter((jwk) => jwk.kty === 'OKP' && jwk.crv === 'Ed25519' && typeof jwk.x === 'string')
      .map((jwk) => createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: jwk.x }, format: 'jwk' }));
    if (parsed.length === 0) throw new Error(`no Ed25519 keys at ${this.jwksUrl}`);
    this.cache = { keys: parsed, fetchedAt: this.now() };
    return parsed;
  }
}

/** Parses a (verified) fal webhook body. */
export function parseFalWebhook(body: Buffer | string, expectedRequestId?: string): FalWebhookEvent {
  let json: Record<string, unknown>;
  try {
    json = JSON.parse(body.toString()) as Record<string, unknown>;
  } catch {
    throw new WebhookVerificationError('webhook body is not JSON');
  }
  const requestId = json.request_id;
  if (typeof requestId !== 'string' || (expectedRequestId && requestId !== expectedRequestId)) {
    throw new WebhookVerificationError('webhook body does not match its signed request id');
  }
  const status = json.status === 'OK' ? 'OK' : 'ERROR';
  const error =
    typeof json.error === 'string'
      ? json.error
      : typeof json.payload_error === 'string'
        ? json.payload_error
        : undefined;
  return { requestId, status, payload: json.payload ?? null, ...(error ? { error } : {}) };
}

/**
 * The verifier for `POST /api/webhooks/fal`, keyed from `FAL_WEBHOOK_JWKS_URL`, or undefined without
 * `FAL_KEY`: we send fal no work then, so no webhook can be ours and none is worth fetching keys for.
 */
export function createFalWebhookVerifier(
  config: Pick<Config, 'providers'>,
  overrides: Omit<FalWebhookVerifierOptions, 'jwksUrl'> = {},
): FalWebhookVerifier | undefined {
  const { key, webhookJwksUrl } = config.providers.fal;
  return key ? new FalWebhookVerifier({ jwksUrl: webhookJwksUrl, ...overrides }) : undefined;
}

import type { ErrorCode } from '@lumina/contracts';

const statusOf: Record<ErrorCode, number> = {
  VALIDATION_FAILED: 400,
  UNAUTHORISED: 401,
  INSUFFICIENT_CREDITS: 402,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  RATE_LIMITED: 429,
  INTERNAL: 500,
  SERVICE_UNAVAILABLE: 503,
};

/**
 * The one error type services throw. `userMessage` is shown to people as `detail`; services never
 * know about HTTP, the error handler maps the code to a status.
 */
export class AppError extends Error {
  readonly status: number;
  /** Sent as Retry-After: when a refusal for being busy is worth retrying. */
  readonly retryAfterSeconds?: number;
  constructor(
    readonly code: ErrorCode,
    readonly userMessage: string,
    options: { cause?: unknown; retryAfterSeconds?: number } = {},
  ) {
    super(userMessage, { cause: options.cause });
    this.name = 'AppError';
    this.status = statusOf[code];
    this.retryAfterSeconds = options.retryAfterSeconds;
  }
}

export const notFound = (what: string) => new AppError('NOT_FOUND', `${what} was not found.`);

export function insufficientCredits(cost: number, balance: number): AppError {
  return new AppError(
    'INSUFFICIENT_CREDITS',
    `Not enough credits: this costs ${cost} ${cost === 1 ? 'credit' : 'credits'} and your balance is ${balance}.`,
  );
}

export function codeForStatus(status: number): ErrorCode {
  const match = (Object.entries(statusOf) as Array<[ErrorCode, number]>).find(([, s]) => s === status);
  if (match) return match[0];
  return status >= 500 ? 'INTERNAL' : 'VALIDATION_FAILED';
}

import { errorStatus, type ErrorCode } from '@lumina/contracts';

/** One status ↔ code map, shared with the web (`@lumina/contracts`). */
export { errorCodeForStatus as codeForStatus } from '@lumina/contracts';

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
    this.status = errorStatus[code];
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

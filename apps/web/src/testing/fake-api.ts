import { z } from 'zod';
import { ErrorBody, ProgressResponse, type Contract, type ErrorCode } from '@lumina/contracts';

/** What the response schema of contract `C` accepts on the wire (what the web client parses). */
export type ResponseOf<C extends Contract> = z.input<C['response']>;

/** An answer a fake route sends: a status and a JSON body already checked against the API's contracts. */
export interface Reply<T = unknown> {
  readonly status: number;
  readonly body: T;
}

/** Thrown when a test fakes something the real API would never send. */
export class ImpossibleAnswer extends Error {
  override name = 'ImpossibleAnswer';
}

function check(schema: z.ZodType, body: unknown, what: string): void {
  const parsed = schema.safeParse(body);
  if (!parsed.success) {
    throw new ImpossibleAnswer(
      `The fake ${what} does not match the contract, so the real API could never send it:\n` +
        z.prettifyError(parsed.error),
    );
  }
}

/**
 * The contract's success answer (its `status`, 200 by default). The body is typed by the contract's
 * response schema and validated with it at run time, so a test cannot fake an answer the server would
 * never send. Another documented status (`contract.responses`) is checked against its own schema.
 */
export function answer<C extends Contract>(
  contract: C,
  body: ResponseOf<C>,
  status: number = contract.status ?? 200,
): Reply<ResponseOf<C>> {
  const schema = status === (contract.status ?? 200) ? contract.response : contract.responses?.[status];
  if (!schema) {
    throw new ImpossibleAnswer(
      `${contract.method} ${contract.path} documents no ${status} answer; use answerError for errors`,
    );
  }
  check(schema, body, `${status} answer to ${contract.method} ${contract.path}`);
  return { status, body };
}

/**
 * An error answer in the API's error envelope. Typed `Reply<never>` so that any route may send it.
 */
export function answerError(status: number, code: ErrorCode, detail: string): Reply<never> {
  if (status < 400) throw new ImpossibleAnswer(`An error answer needs a 4xx or 5xx status, not ${status}`);
  const body = { detail, code };
  check(ErrorBody, body, `${status} error`);
  return { status, body } as Reply<never>;
}

/** One `progress` event of `GET /api/progress/stream`, its data checked against the progress contract. */
export function progressEvent(snapshot: z.input<typeof ProgressResponse>): string {
  check(ProgressResponse, snapshot, 'progress event');
  return `event: progress\ndata: ${JSON.stringify(snapshot)}\n\n`;
}

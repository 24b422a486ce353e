import { z } from 'zod';

/** Stable machine-readable error codes. The human message travels in `detail`. */
export const ErrorCode = z.enum([
  'VALIDATION_FAILED',
  'NOT_FOUND',
  'UNAUTHORISED',
  'FORBIDDEN',
  'CONFLICT',
  'INSUFFICIENT_CREDITS',
  'CONTENT_REFUSED',
  'PAYLOAD_TOO_LARGE',
  'UNSUPPORTED_MEDIA_TYPE',
  'RATE_LIMITED',
  'SERVICE_UNAVAILABLE',
  'INTERNAL',
]);
export type ErrorCode = z.infer<typeof ErrorCode>;

/** Every error response body. The client of docs/spec/SPEC.md reads `detail`. */
export const ErrorBody = z
  .object({
    detail: z.string().describe('A message a person understands'),
    code: ErrorCode,
    requestId: z.string().optional(),
  })
  .meta({ id: 'ErrorBody' });
export type ErrorBody = z.infer<typeof ErrorBody>;

/** The HTTP status each code is sent with: the server answers with it, the web reads a code back from it. */
export const errorStatus = {
  VALIDATION_FAILED: 400,
  UNAUTHORISED: 401,
  INSUFFICIENT_CREDITS: 402,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  /** Well-formed, but what it asks for is against the content policy (the detail says which part). */
  CONTENT_REFUSED: 422,
  RATE_LIMITED: 429,
  INTERNAL: 500,
  SERVICE_UNAVAILABLE: 503,
} as const satisfies Record<ErrorCode, number>;

/**
 * The code for a status when a body names none (a framework or proxy error): the code sent with that
 * status, else INTERNAL for a server fault and VALIDATION_FAILED for any other refusal.
 */
export function errorCodeForStatus(status: number): ErrorCode {
  const match = (Object.entries(errorStatus) as Array<[ErrorCode, number]>).find(([, s]) => s === status);
  if (match) return match[0];
  return status >= 500 ? 'INTERNAL' : 'VALIDATION_FAILED';
}

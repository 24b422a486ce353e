import { z } from 'zod';

/** Stable machine-readable error codes. The human message travels in `detail`. */
export const ErrorCode = z.enum([
  'VALIDATION_FAILED',
  'NOT_FOUND',
  'UNAUTHORISED',
  'FORBIDDEN',
  'CONFLICT',
  'INSUFFICIENT_CREDITS',
  'PAYLOAD_TOO_LARGE',
  'UNSUPPORTED_MEDIA_TYPE',
  'RATE_LIMITED',
  'SERVICE_UNAVAILABLE',
  'INTERNAL',
]);
export type ErrorCode = z.infer<typeof ErrorCode>;

/** Every error response body. The spec's client reads `detail`. */
export const ErrorBody = z
  .object({
    detail: z.string().describe('A message a person understands'),
    code: ErrorCode,
    requestId: z.string().optional(),
  })
  .meta({ id: 'ErrorBody' });
export type ErrorBody = z.infer<typeof ErrorBody>;

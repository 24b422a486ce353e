import type { ErrorBody } from '@lumina/contracts';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { AppError, codeForStatus } from '../errors.ts';

const GENERIC_5XX = 'Something went wrong on our side. Please try again in a moment.';

/** Turns "body/text" + "Too small: expected string to have >=1 characters" into one readable line. */
function describeValidation(err: FastifyError): string {
  const issues = (err.validation ?? []) as Array<{
    instancePath?: string;
    message?: string;
    params?: { issue?: { path?: PropertyKey[] } };
  }>;
  const where = err.validationContext ?? 'request';
  const lines = issues.slice(0, 5).map((issue) => {
    const path =
      (issue.params?.issue?.path ?? []).map(String).join('.') ||
      issue.instancePath?.replace(/^\//, '').replace(/\//g, '.');
    return path ? `${path}: ${issue.message}` : `${issue.message}`;
  });
  return `Invalid ${where}: ${lines.join('; ') || err.message}`;
}

/**
 * The single error serializer: every error leaves as `{ detail, code, requestId }`. Client errors keep
 * their status and a message a person can act on; anything else is logged with its request id and
 * answered with a generic 500 (no stack traces, no internals).
 */
export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const send = (status: number, body: Omit<ErrorBody, 'requestId'>) =>
      reply.code(status).send({ ...body, requestId: request.id } satisfies ErrorBody);

    if (error instanceof AppError) {
      if (error.status >= 500 && error.retryAfterSeconds === undefined) {
        request.log.error({ err: error }, 'request failed');
      }
      if (error.retryAfterSeconds !== undefined) reply.header('retry-after', String(error.retryAfterSeconds));
      return send(error.status, { detail: error.userMessage, code: error.code });
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      return send(400, { detail: describeValidation(error), code: 'VALIDATION_FAILED' });
    }
    if (isResponseSerializationError(error)) {
      request.log.error({ err: error }, 'response did not match its contract');
      return send(500, { detail: GENERIC_5XX, code: 'INTERNAL' });
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      return send(status, { detail: clientMessage(error), code: codeForStatus(status) });
    }
    request.log.error({ err: error }, 'request failed');
    return send(status >= 500 && status < 600 ? status : 500, {
      detail: GENERIC_5XX,
      code: codeForStatus(status),
    });
  });
}

/**
 * Errors Fastify raises before routing (Fastify's `frameworkErrors`), which the error handler never
 * sees: a path that cannot be decoded (a broken percent-escape such as %E0%A4%A) is a 400 in the same
 * shape as every other error.
 */
export function answerFrameworkError(
  error: FastifyError,
  request: FastifyRequest,
  reply: FastifyReply,
): void {
  const detail =
    error.code === 'FST_ERR_BAD_URL'
      ? 'The address has a broken percent-escape (like %E0%A4%A or %ED%A0%80); encode it again.'
      : 'This request could not be routed.';
  void reply.code(400).send({ detail, code: 'VALIDATION_FAILED', requestId: request.id } satisfies ErrorBody);
}

/** Fastify's own 4xx errors (bad JSON, wrong content type, body too large) with friendlier wording. */
function clientMessage(error: FastifyError): string {
  switch (error.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return 'The request body is not valid JSON.';
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return 'The request body is too large.';
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return 'This content type is not accepted here.';
    default:
      return error.message;
  }
}

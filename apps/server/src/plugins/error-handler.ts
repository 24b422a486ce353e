import { randomUUID } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
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

/** Parser errors about the body's framing rather than the request line or headers. */
const BODY_FRAMING_ERRORS = new Set([
  'HPE_INVALID_CHUNK_SIZE',
  'HPE_CHUNK_EXTENSIONS_OVERFLOW',
  'HPE_INVALID_CONTENT_LENGTH',
  'HPE_UNEXPECTED_CONTENT_LENGTH',
  'HPE_INVALID_TRANSFER_ENCODING',
]);

/**
 * Fastify's `clientErrorHandler`: bytes Node's HTTP parser refuses (a malformed chunk size, a broken
 * header) or a request that never finished arriving. There is no request to hand to the error handler,
 * so the answer is written to the socket here, in the same shape, and the connection closed (its
 * framing is lost). A client's broken request is not the server's fault: logged at debug, as Fastify does.
 */
export function answerClientError(this: FastifyInstance, error: NodeJS.ErrnoException, socket: Socket): void {
  // Reset by the client, or already answered: nothing to say and nobody to say it to.
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, detail] =
    error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
      ? [408, 'The request took too long to arrive. Please try again.']
      : error.code === 'HPE_HEADER_OVERFLOW'
        ? [431, 'The request headers are too large.']
        : BODY_FRAMING_ERRORS.has(error.code ?? '')
          ? [400, 'The request could not be read: its body is not valid HTTP (a broken chunk or length).']
          : [400, 'The request could not be read: it is not valid HTTP.'];
  const requestId = randomUUID();
  this.log.debug({ err: error, requestId, status }, 'unreadable request refused');
  const body = JSON.stringify({ detail, code: codeForStatus(status), requestId } satisfies ErrorBody);
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nx-request-id: ${requestId}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(error);
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

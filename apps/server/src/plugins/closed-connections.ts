import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '../errors.ts';

/**
 * Ends a request whose connection has already closed: Node's parser refused what followed the headers
 * (a malformed chunk size, say), `answerClientError` answered 400 and closed the socket, and the request
 * it had already started still runs. Past this point the per-address rate limit asked for the client
 * address of a closed socket (undefined: a TypeError, logged as a server error); nobody is waiting for
 * an answer, so the request ends here as the client error it is. Checked when the request starts and
 * again just before its body is read, since hooks in between may wait.
 */
export function registerClosedConnectionGuard(app: FastifyInstance): void {
  const guard = async (request: FastifyRequest) => {
    if (request.raw.destroyed || request.raw.socket?.destroyed) {
      throw new AppError('VALIDATION_FAILED', 'The connection closed before the request could be read.');
    }
  };
  app.addHook('onRequest', guard);
  app.addHook('preParsing', guard);
}

import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { ProxyTrust } from './proxy-trust.ts';

/** What an id from a proxy may look like: it is written into logs and error bodies as it is. */
const WELL_FORMED = /^[A-Za-z0-9._:-]{1,64}$/;

/**
 * Fastify's genReqId: the `x-request-id` a trusted proxy sends, so logs line up across hops, when it
 * is well-formed; otherwise our own. A client that reaches us directly could otherwise choose the id
 * that names its request in our logs (and make it look like another's, or break a log line).
 */
export function requestIds(trust: ProxyTrust | false): (req: IncomingMessage) => string {
  return (req) => {
    const given = req.headers['x-request-id'];
    const fromProxy = trust !== false && trust(req.socket.remoteAddress ?? '', 0);
    return fromProxy && typeof given === 'string' && WELL_FORMED.test(given) ? given : randomUUID();
  };
}

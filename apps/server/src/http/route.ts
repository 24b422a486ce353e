import type { Contract } from '@lumina/contracts';
import { ErrorBody } from '@lumina/contracts';
import type { FastifyInstance, FastifyReply, FastifyRequest, preHandlerHookHandler } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import { JsonText } from './json-text.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The contract a route was registered from (the contract coverage test reads it). */
    contract?: Contract;
  }
}

type Infer<T> = T extends z.ZodType ? z.output<T> : never;

export type ContractRequest<C extends Contract> = FastifyRequest<{
  Params: Infer<C['params']>;
  Querystring: Infer<C['query']>;
  Body: Infer<C['body']>;
}>;

export type ContractHandler<C extends Contract> = (
  request: ContractRequest<C>,
  reply: FastifyReply,
) => Promise<z.input<C['response']> | JsonText>;

/** `{id}` in a contract path is `:id` to Fastify. */
export const toFastifyPath = (path: string) => path.replace(/\{(\w+)\}/g, ':$1');

/**
 * Registers one route from its contract: validation, serialisation and the OpenAPI entry all come
 * from the same zod schemas the web client uses.
 */
export function route<C extends Contract>(
  app: FastifyInstance,
  contract: C,
  handler: ContractHandler<C>,
  options: { preHandler?: preHandlerHookHandler | preHandlerHookHandler[] } = {},
): void {
  const status = contract.status ?? 200;
  app.withTypeProvider<ZodTypeProvider>().route({
    method: contract.method,
    url: toFastifyPath(contract.path),
    // Before validation: an anonymous caller learns nothing about a route's input (401, not 400).
    preValidation: options.preHandler,
    config: { contract },
    schema: {
      summary: contract.summary,
      tags: [...contract.tags],
      ...(contract.auth === false ? {} : { security: [{ bearerAuth: [] }] }),
      ...(contract.params ? { params: contract.params } : {}),
      ...(contract.query ? { querystring: contract.query } : {}),
      ...(contract.body ? { body: contract.body } : {}),
      response: { [status]: contract.response, '4xx': ErrorBody, '5xx': ErrorBody, ...contract.responses },
    },
    handler: async (request, reply) => {
      const result = await handler(request as unknown as ContractRequest<C>, reply);
      // A handler may choose another documented status (readiness answers 503).
      if (reply.statusCode === 200) reply.code(status);
      if (result instanceof JsonText) {
        // Serialised already (http/json-text.ts): a string with a JSON type is sent as it is.
        reply.type('application/json; charset=utf-8');
        return result.text;
      }
      return result;
    },
  });
}

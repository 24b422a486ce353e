import type { FastifyReply } from 'fastify';

/**
 * A response body already serialised by the route's own response schema, sent as it is. route()
 * recognises it; the text must have come from `reply.serialize` of a value the contract accepts.
 */
export class JsonText {
  constructor(readonly text: string) {}
}

/** What a cache of serialised responses offers (modules/images/listing-cache.ts is one). */
export interface JsonTextCache {
  stamp(): number;
  get(scope: string, key: string): string | undefined;
  set(scope: string, key: string, stamp: number, text: string): void;
}

/**
 * The cached body for (scope, key), or `build()` serialised through the route's response schema
 * (so the contract still checks every body that is ever cached) and stored. No scope: not cached.
 */
export async function cachedJson(
  reply: FastifyReply,
  cache: JsonTextCache,
  scope: string | undefined,
  key: string,
  build: () => Promise<unknown>,
): Promise<JsonText> {
  const hit = scope === undefined ? undefined : cache.get(scope, key);
  if (hit !== undefined) return new JsonText(hit);
  const stamp = cache.stamp();
  const text = reply.serialize(await build()) as string;
  if (scope !== undefined) cache.set(scope, key, stamp, text);
  return new JsonText(text);
}

import fastifyMultipart from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';

/** Limits on every multipart form; a route reads its form with modules/uploads/multipart.ts. */
export const MULTIPART_LIMITS = {
  /** The largest tool form has two images; room for a few more before the parser stops reading. */
  files: 4,
  fields: 20,
  /** Prompts are at most a few thousand characters; nothing textual needs more. */
  fieldSize: 16 * 1024,
  parts: 30,
} as const;

/**
 * multipart/form-data parsing for the upload routes. Nothing is parsed until a route asks
 * (`request.parts()`), so other routes are unaffected; each file is capped at `maxBytes`.
 */
export async function registerMultipart(app: FastifyInstance, options: { maxBytes: number }): Promise<void> {
  await app.register(fastifyMultipart, {
    limits: { ...MULTIPART_LIMITS, fileSize: options.maxBytes },
  });
}

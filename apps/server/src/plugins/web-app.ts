import { existsSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { ErrorBody } from '@lumina/contracts';
import type { FastifyInstance } from 'fastify';

/** Paths that belong to the server, never to the single-page app. */
const serverPrefixes = ['/api/', '/auth/'];

/**
 * Serves the built web app from the same process: hashed assets cached for a year, index.html never
 * cached, and any other GET that accepts HTML answered with index.html so client routes survive a
 * reload. Unknown API paths get a JSON 404.
 */
export async function registerWebApp(app: FastifyInstance, distDir: string): Promise<void> {
  const hasBuild = existsSync(path.join(distDir, 'index.html'));
  if (hasBuild) {
    await app.register(fastifyStatic, {
      root: distDir,
      wildcard: false,
      index: false,
      setHeaders(res, filePath) {
        const hashed = filePath.includes(`${path.sep}assets${path.sep}`);
        res.header('cache-control', hashed ? 'public, max-age=31536000, immutable' : 'no-cache');
        // The README shipped with the build (operators' set-up hint links to it): readable in the browser.
        if (filePath.endsWith('.md')) res.header('content-type', 'text/plain; charset=utf-8');
      },
    });
  }

  app.setNotFoundHandler((request, reply) => {
    const url = request.url.split('?')[0] ?? '/';
    const wantsPage =
      (request.method === 'GET' || request.method === 'HEAD') &&
      !serverPrefixes.some((p) => url.startsWith(p) || url === p.slice(0, -1)) &&
      (request.headers.accept ?? '').includes('text/html');
    if (wantsPage && hasBuild) {
      return reply.header('cache-control', 'no-cache').type('text/html').sendFile('index.html');
    }
    const body: ErrorBody = {
      detail: `No such endpoint: ${request.method} ${url}`,
      code: 'NOT_FOUND',
      requestId: request.id,
    };
    return reply.code(404).send(body);
  });
}

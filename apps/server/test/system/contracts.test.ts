import { contracts } from '@lumina/contracts';
import { describe, expect, it } from 'vitest';
import { toFastifyPath } from '../../src/http/route.ts';
import { useTestEnv } from '../harness.ts';

/** OpenAPI writes `{id}` and Fastify's wildcard as `*`; contracts use the same spelling. */
const key = (method: string, path: string) => `${method.toUpperCase()} ${path}`;

describe('contracts and routes', () => {
  const env = useTestEnv({ workers: false });

  it('registers exactly one route for every contract', () => {
    for (const contract of Object.values(contracts)) {
      const url = toFastifyPath(contract.path);
      expect(env.app.hasRoute({ method: contract.method, url }), key(contract.method, contract.path)).toBe(
        true,
      );
    }
    const keys = Object.values(contracts).map((c) => key(c.method, c.path));
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('has a contract for every documented /api route', async () => {
    const spec = (await env.app.inject({ method: 'GET', url: '/api/openapi.json' })).json() as {
      paths: Record<string, Record<string, unknown>>;
    };
    const documented = Object.entries(spec.paths)
      .filter(([path]) => path.startsWith('/api/'))
      .flatMap(([path, methods]) => Object.keys(methods).map((m) => key(m, path.replace('{*}', '*'))));
    const contracted = new Set(Object.values(contracts).map((c) => key(c.method, c.path)));
    expect(documented.filter((k) => !contracted.has(k))).toEqual([]);
    expect(documented.length).toBeGreaterThanOrEqual(contracted.size);
  });
});

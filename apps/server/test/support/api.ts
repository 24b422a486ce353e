import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { signIn } from '../../src/modules/auth/auth.test-helpers.ts';
import type { TestEnv } from '../harness.ts';

/** A signed-in person making product calls, the way the web app does (bearer access token). */
export interface Client {
  userId: string;
  email: string;
  call(method: InjectOptions['method'], url: string, payload?: unknown): Promise<LightMyRequestResponse>;
}

let counter = 0;

export async function signedInClient(env: TestEnv, name = 'person'): Promise<Client> {
  const email = `${name}-${Date.now()}-${counter++}@example.test`;
  const session = await signIn(env, email);
  return {
    userId: session.userId,
    email,
    call: (method, url, payload) =>
      env.app.inject({
        method,
        url,
        headers: { authorization: `Bearer ${session.accessToken}` },
        ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
      }),
  };
}

/** Polls until `check` returns a value (not undefined), or fails after `timeoutMs`. */
export async function eventually<T>(
  check: () => Promise<T | undefined>,
  timeoutMs = 20_000,
  what = 'condition',
): Promise<T> {
  const started = Date.now();
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

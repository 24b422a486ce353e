import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { expect, vi } from 'vitest';
import type { TestEnv } from '../../../test/harness.ts';
import type { AuthModule } from './auth.module.ts';

/** Test helpers for the sign-in layer: the SDK's headers, a passwordless sign-in, the front-token. */

export const SDK_HEADERS = {
  rid: 'passwordless',
  'fdi-version': '3.1,4.0,4.1,4.2',
  'content-type': 'application/json',
};
export const SESSION_HEADERS = { rid: 'session', 'fdi-version': '1.16,1.17,1.18,1.19,2.0,3.0,3.1,4.0,4.1' };

export const authOf = (env: TestEnv): AuthModule => env.container.services.auth;

/** Moves the sign-in layer's clock forward (tokens, codes, keys and limits all read it). */
export function fakeClock(env: TestEnv) {
  let offset = 0;
  vi.spyOn(authOf(env).clock, 'now').mockImplementation(() => Date.now() + offset);
  return {
    advance(ms: number) {
      offset += ms;
    },
  };
}

export function decodeFrontToken(value: string) {
  return JSON.parse(Buffer.from(value, 'base64').toString('utf8')) as {
    uid: string;
    ate: number;
    up: Record<string, unknown> & {
      sessionHandle: string;
      iat: number;
      exp: number;
      sub: string;
      tId: string;
    };
  };
}

export function latestMail(env: TestEnv, to: string) {
  const entry = authOf(env).mailbox!.list({ to })[0];
  if (!entry) throw new Error(`no mail for ${to}`);
  return entry;
}

export async function createCode(
  app: FastifyInstance,
  body: Record<string, unknown>,
  options: { tenant?: string; headers?: Record<string, string> } = {},
) {
  const res = await app.inject({
    method: 'POST',
    url: `/auth${options.tenant ? `/${options.tenant}` : ''}/signinup/code`,
    headers: { ...SDK_HEADERS, ...options.headers },
    payload: body,
  });
  return { res, body: res.json() as Record<string, string> };
}

export async function consume(
  app: FastifyInstance,
  body: Record<string, unknown>,
  options: { tenant?: string; headers?: Record<string, string> } = {},
) {
  const res = await app.inject({
    method: 'POST',
    url: `/auth${options.tenant ? `/${options.tenant}` : ''}/signinup/code/consume`,
    headers: { ...SDK_HEADERS, ...options.headers },
    payload: body,
  });
  return { res, body: res.json() as Record<string, unknown> };
}

export interface SignedIn {
  res: LightMyRequestResponse;
  body: Record<string, unknown>;
  userId: string;
  accessToken: string;
  refreshToken: string;
  frontToken: ReturnType<typeof decodeFrontToken>;
}

/** A full passwordless sign-in in header mode with the code from the dev mailbox. */
export async function signIn(
  env: TestEnv,
  email: string,
  options: { tenant?: string } = {},
): Promise<SignedIn> {
  const started = await createCode(env.app, { email, shouldTryLinkingWithSessionUser: false }, options);
  expect(started.body.status).toBe('OK');
  const code = latestMail(env, email).code!;
  const done = await consume(
    env.app,
    {
      userInputCode: code,
      deviceId: started.body.deviceId,
      preAuthSessionId: started.body.preAuthSessionId,
      shouldTryLinkingWithSessionUser: false,
    },
    { ...options, headers: { 'st-auth-mode': 'header' } },
  );
  expect(done.body.status).toBe('OK');
  return {
    res: done.res,
    body: done.body,
    userId: (done.body.user as { id: string }).id,
    accessToken: String(done.res.headers['st-access-token']),
    refreshToken: String(done.res.headers['st-refresh-token']),
    frontToken: decodeFrontToken(String(done.res.headers['front-token'])),
  };
}

export async function refresh(app: FastifyInstance, refreshToken: string) {
  return app.inject({
    method: 'POST',
    url: '/auth/session/refresh',
    headers: { ...SESSION_HEADERS, 'st-auth-mode': 'header', authorization: `Bearer ${refreshToken}` },
  });
}

export async function getUser(app: FastifyInstance, accessToken: string) {
  return app.inject({ method: 'GET', url: '/api/user', headers: { authorization: `Bearer ${accessToken}` } });
}

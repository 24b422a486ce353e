import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { beforeAll, expect, vi } from 'vitest';
import { startFakeGitHub } from '../../../test/fakes/github.ts';
import { startFakeOidcProvider } from '../../../test/fakes/oidc-provider.ts';
import type { TestEnv } from '../../../test/harness.ts';
import { startedForSuite } from '../../../test/support/suite-scope.ts';
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

/** `fakeClock` for a whole suite, set once the suite's env has started. */
export function useFakeClock(env: TestEnv) {
  let clock: ReturnType<typeof fakeClock> | undefined;
  beforeAll(() => {
    clock = fakeClock(env);
  });
  return { advance: (ms: number) => clock!.advance(ms) };
}

/** An address no other test uses, named for what the test does. */
export const uniqueEmail = (name: string) => `${name}-${Math.random().toString(36).slice(2, 8)}@example.test`;

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

interface PasswordlessCallOptions {
  tenant?: string;
  headers?: Record<string, string>;
}

/** A POST to one of the SDK's passwordless routes (under the tenant's path when one is given). */
function passwordlessCall(
  app: FastifyInstance,
  route: string,
  body: object,
  options: PasswordlessCallOptions,
) {
  return app.inject({
    method: 'POST',
    url: `/auth${options.tenant ? `/${options.tenant}` : ''}/signinup/${route}`,
    headers: { ...SDK_HEADERS, ...options.headers },
    payload: body,
  });
}

export async function createCode(
  app: FastifyInstance,
  body: Record<string, unknown>,
  options: PasswordlessCallOptions = {},
) {
  const res = await passwordlessCall(app, 'code', body, options);
  return { res, body: res.json() as Record<string, string> };
}

export async function consume(
  app: FastifyInstance,
  body: Record<string, unknown>,
  options: PasswordlessCallOptions = {},
) {
  const res = await passwordlessCall(app, 'code/consume', body, options);
  return { res, body: res.json() as Record<string, unknown> };
}

/** Enters the code the dev mailbox holds for `email` into a sign-in that `createCode` started. */
export function consumeMailedCode(
  env: TestEnv,
  email: string,
  started: { body: Record<string, string> },
  options: { link?: boolean } & PasswordlessCallOptions = {},
) {
  const { link, ...rest } = options;
  return consume(
    env.app,
    {
      userInputCode: latestMail(env, email).code,
      deviceId: started.body.deviceId,
      preAuthSessionId: started.body.preAuthSessionId,
      ...(link === undefined ? {} : { shouldTryLinkingWithSessionUser: link }),
    },
    rest,
  );
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
  const done = await consumeMailedCode(env, email, started, {
    ...options,
    link: false,
    headers: { 'st-auth-mode': 'header' },
  });
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

/** A fake OpenID provider (Google, GitLab) for a whole suite. */
export const useFakeOidcProvider = (options: Parameters<typeof startFakeOidcProvider>[0]) =>
  startedForSuite(
    'the fake OpenID provider',
    () => startFakeOidcProvider(options),
    (p) => p.close(),
  );

/** A fake GitHub for a whole suite. */
export const useFakeGitHub = (options: Parameters<typeof startFakeGitHub>[0]) =>
  startedForSuite(
    'the fake GitHub',
    () => startFakeGitHub(options),
    (p) => p.close(),
  );

/** Any fake server (a sign-in provider) started for a whole suite and closed after it. */
export const useFakeServer = <T extends { close(): Promise<void> }>(what: string, start: () => Promise<T>) =>
  startedForSuite(what, start, (p) => p.close());

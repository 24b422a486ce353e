import { decodeJwt } from 'jose';
import { describe, expect, it } from 'vitest';
import { testDb, useTestEnv } from '../../../test/harness.ts';
import {
  authOf,
  consume,
  createCode,
  decodeFrontToken,
  getUser,
  latestMail,
  SDK_HEADERS,
  signIn,
  uniqueEmail,
  useFakeClock,
  consumeMailedCode,
} from './auth.test-helpers.ts';

const wrong = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');

describe(`passwordless on ${testDb}`, () => {
  const env = useTestEnv({
    workers: false,
    env: {
      WEB_URL: 'http://web.lumina.test:5173',
      TENANTS_JSON: '{"acme":{"firstFactors":["otp-email"]}}',
    },
  });
  const clock = useFakeClock(env);

  it('creates a code: OK body, and an email with a 6-digit code and a magic link with the code in the fragment', async () => {
    const address = uniqueEmail('create');
    const { res, body } = await createCode(env.app, {
      email: `  ${address.toUpperCase()} `,
      shouldTryLinkingWithSessionUser: false,
    });
    expect(res.statusCode).toBe(200);
    expect(body).toEqual({
      status: 'OK',
      deviceId: expect.any(String),
      preAuthSessionId: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      flowType: 'USER_INPUT_CODE_AND_MAGIC_LINK',
    });
    const mail = latestMail(env, address);
    expect(mail.code).toMatch(/^\d{6}$/);
    expect(mail.subject).toContain('Lumina');
    expect(mail.text).toContain(mail.code);
    expect(mail.html).toContain(mail.code);
    const link = new URL(mail.link!);
    expect(`${link.origin}${link.pathname}`).toBe('http://web.lumina.test:5173/auth/verify');
    expect(link.searchParams.get('preAuthSessionId')).toBe(body.preAuthSessionId);
    expect(link.searchParams.get('tenantId')).toBe('public');
    expect(link.hash.slice(1)).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(mail.text).toContain(mail.link);
  });

  it('rejects bad input: invalid email is GENERAL_ERROR, neither or both contacts is 400, bad JSON is 400', async () => {
    expect((await createCode(env.app, { email: 'not-an-email' })).body).toEqual({
      status: 'GENERAL_ERROR',
      message: 'Email is invalid',
    });
    const neither = await createCode(env.app, {});
    expect(neither.res.statusCode).toBe(400);
    expect(neither.body).toEqual({ message: expect.any(String) });
    const both = await createCode(env.app, { email: uniqueEmail('x'), phoneNumber: '+14155550100' });
    expect(both.res.statusCode).toBe(400);
    // Phone sign-in is off by default (EMAIL contact method).
    expect((await createCode(env.app, { phoneNumber: '+14155550100' })).res.statusCode).toBe(400);
    const badJson = await env.app.inject({
      method: 'POST',
      url: '/auth/signinup/code',
      headers: SDK_HEADERS,
      payload: '{nope',
    });
    expect(badJson.statusCode).toBe(400);
    expect(badJson.json()).toEqual({ message: expect.any(String) });
    const missing = await env.app.inject({
      method: 'POST',
      url: '/auth/signinup/code/consume',
      headers: SDK_HEADERS,
      payload: {},
    });
    expect(missing.statusCode).toBe(400);
  });

  it('counts wrong codes and restarts the flow at the fifth', async () => {
    const address = uniqueEmail('attempts');
    const { body } = await createCode(env.app, { email: address });
    const code = latestMail(env, address).code!;
    const attempt = (userInputCode: string) =>
      consume(env.app, { userInputCode, deviceId: body.deviceId, preAuthSessionId: body.preAuthSessionId });
    for (let n = 1; n <= 4; n++) {
      expect((await attempt(wrong(code))).body).toEqual({
        status: 'INCORRECT_USER_INPUT_CODE_ERROR',
        failedCodeInputAttemptCount: n,
        maximumCodeInputAttempts: 5,
      });
    }
    expect((await attempt(wrong(code))).body).toEqual({ status: 'RESTART_FLOW_ERROR' });
    expect((await attempt(code)).body).toEqual({ status: 'RESTART_FLOW_ERROR' });
  });

  it('says EXPIRED for a code past 15 minutes, and accepts a resent code', async () => {
    const address = uniqueEmail('expired');
    const { body } = await createCode(env.app, { email: address });
    const code = latestMail(env, address).code!;
    clock.advance(15 * 60_000 + 1_000);
    const expired = await consume(env.app, {
      userInputCode: code,
      deviceId: body.deviceId,
      preAuthSessionId: body.preAuthSessionId,
    });
    expect(expired.body).toEqual({
      status: 'EXPIRED_USER_INPUT_CODE_ERROR',
      failedCodeInputAttemptCount: 1,
      maximumCodeInputAttempts: 5,
    });
    const resend = await env.app.inject({
      method: 'POST',
      url: '/auth/signinup/code/resend',
      headers: SDK_HEADERS,
      payload: {
        deviceId: body.deviceId,
        preAuthSessionId: body.preAuthSessionId,
        shouldTryLinkingWithSessionUser: false,
      },
    });
    expect(resend.json()).toEqual({ status: 'OK' });
    const fresh = latestMail(env, address).code!;
    const ok = await consume(env.app, {
      userInputCode: fresh,
      deviceId: body.deviceId,
      preAuthSessionId: body.preAuthSessionId,
    });
    expect(ok.body.status).toBe('OK');
    expect(ok.res.headers['st-access-token']).toBeTruthy();
  });

  it('refuses a resend or consume for an unknown device or a device id that does not match', async () => {
    const address = uniqueEmail('resend');
    const { body } = await createCode(env.app, { email: address });
    const resend = (payload: Record<string, unknown>) =>
      env.app.inject({ method: 'POST', url: '/auth/signinup/code/resend', headers: SDK_HEADERS, payload });
    expect((await resend({ deviceId: 'nope', preAuthSessionId: body.preAuthSessionId })).json()).toEqual({
      status: 'RESTART_FLOW_ERROR',
    });
    expect((await resend({ deviceId: body.deviceId, preAuthSessionId: 'unknown' })).json()).toEqual({
      status: 'RESTART_FLOW_ERROR',
    });
    const code = latestMail(env, address).code!;
    expect(
      (
        await consume(env.app, {
          userInputCode: code,
          deviceId: 'nope',
          preAuthSessionId: body.preAuthSessionId,
        })
      ).body,
    ).toEqual({
      status: 'RESTART_FLOW_ERROR',
    });
  });

  it('signs in with the magic link once; the link then restarts the flow, as do expired links', async () => {
    const address = uniqueEmail('link');
    await createCode(env.app, { email: address });
    const link = new URL(latestMail(env, address).link!);
    const payload = {
      linkCode: link.hash.slice(1),
      preAuthSessionId: link.searchParams.get('preAuthSessionId'),
      shouldTryLinkingWithSessionUser: false,
    };
    const first = await consume(env.app, payload);
    expect(first.body).toMatchObject({ status: 'OK', createdNewRecipeUser: true });
    expect(decodeFrontToken(String(first.res.headers['front-token'])).up['st-mfa']).toMatchObject({
      c: { 'link-email': expect.any(Number) },
    });
    expect((await consume(env.app, payload)).body).toEqual({ status: 'RESTART_FLOW_ERROR' });

    const late = uniqueEmail('late-link');
    await createCode(env.app, { email: late });
    const lateLink = new URL(latestMail(env, late).link!);
    clock.advance(16 * 60_000);
    const tooLate = await consume(env.app, {
      linkCode: lateLink.hash.slice(1),
      preAuthSessionId: lateLink.searchParams.get('preAuthSessionId'),
    });
    expect(tooLate.body).toEqual({ status: 'RESTART_FLOW_ERROR' });
  });

  it('ends every open attempt for the address after a successful sign-in', async () => {
    const address = uniqueEmail('many');
    const a = await createCode(env.app, { email: address });
    const codeA = latestMail(env, address).code!;
    const b = await createCode(env.app, { email: address });
    const codeB = latestMail(env, address).code!;
    expect(
      (
        await consume(env.app, {
          userInputCode: codeB,
          deviceId: b.body.deviceId,
          preAuthSessionId: b.body.preAuthSessionId,
        })
      ).body.status,
    ).toBe('OK');
    expect(
      (
        await consume(env.app, {
          userInputCode: codeA,
          deviceId: a.body.deviceId,
          preAuthSessionId: a.body.preAuthSessionId,
        })
      ).body,
    ).toEqual({
      status: 'RESTART_FLOW_ERROR',
    });
  });

  it('answers the exists checks', async () => {
    const address = uniqueEmail('exists');
    const exists = async (q: string, tenant = '') =>
      (
        await env.app.inject({
          method: 'GET',
          url: `/auth${tenant}/passwordless/email/exists?email=${encodeURIComponent(q)}`,
          headers: SDK_HEADERS,
        })
      ).json();
    expect(await exists(address)).toEqual({ status: 'OK', exists: false });
    await signIn(env, address);
    expect(await exists(address.toUpperCase())).toEqual({ status: 'OK', exists: true });
    expect(await exists(address, '/acme')).toEqual({ status: 'OK', exists: false });
    const missing = await env.app.inject({
      method: 'GET',
      url: '/auth/passwordless/email/exists',
      headers: SDK_HEADERS,
    });
    expect(missing.statusCode).toBe(400);
    const phone = await env.app.inject({
      method: 'GET',
      url: '/auth/passwordless/phonenumber/exists?phoneNumber=%2B14155550100',
      headers: SDK_HEADERS,
    });
    expect(phone.json()).toEqual({ status: 'OK', exists: false });
  });

  it('keeps tenants apart: a code made in one tenant cannot be used in another; sessions carry tId', async () => {
    const address = uniqueEmail('tenant');
    const { body } = await createCode(env.app, { email: address }, { tenant: 'acme' });
    expect(body.flowType).toBe('USER_INPUT_CODE');
    const mail = latestMail(env, address);
    expect(mail.link).toBeUndefined();
    const payload = {
      userInputCode: mail.code,
      deviceId: body.deviceId,
      preAuthSessionId: body.preAuthSessionId,
    };
    expect((await consume(env.app, payload)).body).toEqual({ status: 'RESTART_FLOW_ERROR' });
    expect((await consume(env.app, payload, { tenant: 'public' })).body).toEqual({
      status: 'RESTART_FLOW_ERROR',
    });
    const ok = await consume(env.app, payload, { tenant: 'acme' });
    expect(ok.body.status).toBe('OK');
    expect(decodeJwt(String(ok.res.headers['st-access-token'])).tId).toBe('acme');
    expect((ok.body.user as { tenantIds: string[] }).tenantIds).toEqual(['acme']);

    const unknown = await createCode(env.app, { email: address }, { tenant: 'nobody' });
    expect(unknown.res.statusCode).toBe(400);
  });

  it('lists login methods per tenant with top-level fields and firstFactors', async () => {
    const get = async (path: string) =>
      env.app.inject({
        method: 'GET',
        url: path,
        headers: { rid: 'multitenancy', 'content-type': 'application/json' },
      });
    expect((await get('/auth/loginmethods')).json()).toEqual({
      status: 'OK',
      emailPassword: { enabled: false },
      thirdParty: { enabled: false, providers: [] },
      passwordless: { enabled: true },
      webauthn: { enabled: false },
      firstFactors: ['otp-email', 'link-email', 'webauthn'],
    });
    expect((await get('/auth/public/loginmethods')).json().firstFactors).toEqual([
      'otp-email',
      'link-email',
      'webauthn',
    ]);
    expect((await get('/auth/acme/loginmethods')).json().firstFactors).toEqual(['otp-email']);
    expect((await get('/auth/nobody/loginmethods')).statusCode).toBe(400);
  });

  it('completes otp-email as a second factor on the existing session (no new session)', async () => {
    const address = uniqueEmail('mfa');
    const s = await signIn(env, address);
    const auth = { authorization: `Bearer ${s.accessToken}` };
    const noSession = await createCode(env.app, { email: address, shouldTryLinkingWithSessionUser: true });
    expect(noSession.res.statusCode).toBe(401);
    const started = await createCode(
      env.app,
      { email: address, shouldTryLinkingWithSessionUser: true },
      { headers: auth },
    );
    expect(started.body.flowType).toBe('USER_INPUT_CODE');
    clock.advance(2_000);
    const done = await consumeMailedCode(env, address, started, { link: true, headers: auth });
    expect(done.body).toMatchObject({ status: 'OK', createdNewRecipeUser: false, user: { id: s.userId } });
    expect(done.res.headers['st-refresh-token']).toBeUndefined();
    const ft = decodeFrontToken(String(done.res.headers['front-token']));
    expect(ft.up.sessionHandle).toBe(s.frontToken.up.sessionHandle);
    expect((ft.up['st-mfa'] as { c: Record<string, number> }).c['otp-email']).toBeGreaterThan(
      (s.frontToken.up['st-mfa'] as { c: Record<string, number> }).c['otp-email']!,
    );

    // Another user's address cannot be claimed as a factor.
    const other = uniqueEmail('other');
    await signIn(env, other);
    const stolen = await createCode(
      env.app,
      { email: other, shouldTryLinkingWithSessionUser: true },
      { headers: auth },
    );
    expect(stolen.body.status).toBe('SIGN_IN_UP_NOT_ALLOWED');
  });

  it('serves the email-verification routes (passwordless emails are verified)', async () => {
    const s = await signIn(env, uniqueEmail('ev'));
    const headers = {
      rid: 'emailverification',
      'content-type': 'application/json',
      authorization: `Bearer ${s.accessToken}`,
    };
    const get = await env.app.inject({ method: 'GET', url: '/auth/user/email/verify', headers });
    expect(get.json()).toEqual({ status: 'OK', isVerified: true });
    expect(decodeFrontToken(String(get.headers['front-token'])).up['st-ev']).toMatchObject({ v: true });
    const token = await env.app.inject({
      method: 'POST',
      url: '/auth/user/email/verify/token',
      headers,
      payload: {},
    });
    expect(token.json()).toEqual({ status: 'EMAIL_ALREADY_VERIFIED_ERROR' });
    const verify = await env.app.inject({
      method: 'POST',
      url: '/auth/user/email/verify',
      headers,
      payload: { method: 'token', token: 'bogus' },
    });
    expect(verify.json()).toEqual({ status: 'EMAIL_VERIFICATION_INVALID_TOKEN_ERROR' });
    expect((await env.app.inject({ method: 'GET', url: '/auth/user/email/verify' })).statusCode).toBe(401);
  });

  it('lists the development mailbox newest first, filtered by address', async () => {
    const address = uniqueEmail('mailbox');
    await createCode(env.app, { email: address });
    await createCode(env.app, { email: address });
    const res = await env.app.inject({
      method: 'GET',
      url: `/api/dev/mailbox?to=${encodeURIComponent(address)}`,
    });
    expect(res.statusCode).toBe(200);
    const list = res.json();
    expect(list).toHaveLength(2);
    expect(list[0].id).toBeGreaterThan(list[1].id);
    expect(list[0]).toMatchObject({
      to: address,
      channel: 'email',
      code: expect.stringMatching(/^\d{6}$/),
      link: expect.any(String),
    });
    const all = await env.app.inject({ method: 'GET', url: '/api/dev/mailbox' });
    expect(all.json().length).toBeGreaterThan(2);
    expect(
      (await env.app.inject({ method: 'GET', url: '/api/dev/mailbox', remoteAddress: '::1' })).statusCode,
    ).toBe(200);
  });

  it('serves the development mailbox to this machine only, whatever X-Forwarded-For claims', async () => {
    for (const remoteAddress of ['10.0.0.7', '192.168.1.20', '::ffff:10.0.0.7', '2001:db8::1']) {
      const res = await env.app.inject({
        method: 'GET',
        url: '/api/dev/mailbox',
        remoteAddress,
        headers: { 'x-forwarded-for': '127.0.0.1', 'x-real-ip': '127.0.0.1' },
      });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({
        code: 'NOT_FOUND',
        detail: expect.stringContaining('only served to this machine'),
      });
      expect(res.body).not.toContain('"link"');
    }
  });

  it('returns the user profile for the token of a phone-less email user', async () => {
    const address = uniqueEmail('profile');
    const s = await signIn(env, address);
    expect((await getUser(env.app, s.accessToken)).json()).toEqual({
      id: s.userId,
      email: address,
      is_operator: false,
      onboarded: false,
    });
    expect(authOf(env).mailbox).toBeDefined();
  });
});

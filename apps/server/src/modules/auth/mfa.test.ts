import { Secret, TOTP } from 'otpauth';
import { describe, expect, it } from 'vitest';
import { testDb, useTestEnv } from '../../../test/harness.ts';
import {
  authOf,
  consume,
  createCode,
  decodeFrontToken,
  getUser,
  latestMail,
  signIn,
  uniqueEmail,
  useFakeClock,
  consumeMailedCode,
} from './auth.test-helpers.ts';

describe(`multi-factor sign-in and TOTP on ${testDb}`, () => {
  const env = useTestEnv({ workers: false });
  const clock = useFakeClock(env);

  const now = () => authOf(env).clock.now();
  const code = (secret: string, offsetMs = 0) =>
    TOTP.generate({ secret: Secret.fromBase32(secret), digits: 6, period: 30, timestamp: now() + offsetMs });

  function call(token: string, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown) {
    return env.app.inject({
      method,
      url,
      headers: {
        rid: 'totp',
        authorization: `Bearer ${token}`,
        ...(payload === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
  }

  /** Sets TOTP up for a fresh user through the FDI routes; returns the secret and the session. */
  async function withTotp(name: string) {
    const s = await signIn(env, uniqueEmail(name));
    const created = await call(s.accessToken, 'POST', '/auth/totp/device', {});
    expect(created.json()).toMatchObject({
      status: 'OK',
      deviceName: 'TOTP Device 1',
      secret: expect.any(String),
    });
    const { secret, qrCodeString } = created.json();
    const qr = new URL(qrCodeString);
    expect(qr.protocol).toBe('otpauth:');
    expect(decodeURIComponent(qr.pathname)).toMatch(/^\/\/?(totp\/)?Lumina:.+@example\.test$/);
    expect(Object.fromEntries(qr.searchParams)).toMatchObject({
      secret,
      issuer: 'Lumina',
      digits: '6',
      period: '30',
    });
    const verified = await call(s.accessToken, 'POST', '/auth/totp/device/verify', {
      deviceName: 'TOTP Device 1',
      totp: code(secret),
    });
    expect(verified.json()).toEqual({ status: 'OK', wasAlreadyVerified: false });
    return { ...s, secret, access: String(verified.headers['st-access-token']) };
  }

  it('sets up a TOTP device, lists it, and turns TOTP on as a second factor', async () => {
    const s = await withTotp('setup');
    const list = await call(s.access, 'GET', '/auth/totp/device/list');
    expect(list.json()).toEqual({
      status: 'OK',
      devices: [{ name: 'TOTP Device 1', period: 30, skew: 1, verified: true }],
    });
    const account = await call(s.access, 'GET', '/api/user/second-factors');
    expect(account.json()).toMatchObject({ enabled: ['totp'], alreadySetup: ['otp-email', 'totp'] });
    const dup = await call(s.access, 'POST', '/auth/totp/device', { deviceName: 'TOTP Device 1' });
    expect(dup.json()).toEqual({ status: 'DEVICE_ALREADY_EXISTS_ERROR' });
    const unknown = await call(s.access, 'POST', '/auth/totp/device/verify', {
      deviceName: 'nope',
      totp: '123456',
    });
    expect(unknown.json()).toEqual({ status: 'UNKNOWN_DEVICE_ERROR' });
  });

  it('stops the next sign-in at the second factor until TOTP is entered', async () => {
    const s = await withTotp('signin');
    const address = (s.body.user as { emails: string[] }).emails[0]!;
    clock.advance(31_000);
    const next = await signIn(env, address);
    expect(next.frontToken.up['st-mfa']).toEqual({ c: { 'otp-email': expect.any(Number) }, v: false });

    // Product routes refuse the half-signed-in session with a claim error, not a 401.
    const blocked = await getUser(env.app, next.accessToken);
    expect(blocked.statusCode).toBe(403);
    expect(blocked.json().claimValidationErrors).toEqual([{ id: 'st-mfa', reason: expect.anything() }]);

    const info = await call(next.accessToken, 'PUT', '/auth/mfa/info', {});
    expect(info.json().factors).toEqual({
      next: ['totp'],
      alreadySetup: ['otp-email', 'totp'],
      allowedToSetup: [],
    });
    // Setting up another authenticator is not allowed in this state.
    expect((await call(next.accessToken, 'POST', '/auth/totp/device', {})).statusCode).toBe(403);
    // Nor removing the working one.
    expect(
      (await call(next.accessToken, 'POST', '/auth/totp/device/remove', { deviceName: 'TOTP Device 1' }))
        .statusCode,
    ).toBe(403);

    const wrong = await call(next.accessToken, 'POST', '/auth/totp/verify', {
      totp: '000000' === code(s.secret) ? '111111' : '000000',
    });
    expect(wrong.json()).toEqual({
      status: 'INVALID_TOTP_ERROR',
      currentNumberOfFailedAttempts: 1,
      maxNumberOfFailedAttempts: 5,
    });
    const ok = await call(next.accessToken, 'POST', '/auth/totp/verify', { totp: code(s.secret) });
    expect(ok.json()).toEqual({ status: 'OK' });
    expect(ok.headers['st-refresh-token']).toBeUndefined();
    const ft = decodeFrontToken(String(ok.headers['front-token']));
    expect(ft.up['st-mfa']).toEqual({
      c: { 'otp-email': expect.any(Number), totp: expect.any(Number) },
      v: true,
    });
    expect(ft.up.sessionHandle).toBe(next.frontToken.up.sessionHandle);
    expect((await getUser(env.app, String(ok.headers['st-access-token']))).statusCode).toBe(200);

    // A refresh keeps the completed factor.
    const refreshed = await env.app.inject({
      method: 'POST',
      url: '/auth/session/refresh',
      headers: { rid: 'session', authorization: `Bearer ${next.refreshToken}` },
    });
    expect(decodeFrontToken(String(refreshed.headers['front-token'])).up['st-mfa']).toMatchObject({
      v: true,
    });
  });

  it('refuses a replayed code and locks TOTP after five failures', async () => {
    const s = await withTotp('limits');
    // The code that verified the device cannot be used again.
    const replay = await call(s.access, 'POST', '/auth/totp/verify', { totp: code(s.secret) });
    expect(replay.json()).toMatchObject({ status: 'INVALID_TOTP_ERROR', currentNumberOfFailedAttempts: 1 });
    for (let n = 2; n <= 4; n++) {
      expect((await call(s.access, 'POST', '/auth/totp/verify', { totp: 'abcdef' })).json()).toMatchObject({
        currentNumberOfFailedAttempts: n,
      });
    }
    const fifth = await call(s.access, 'POST', '/auth/totp/verify', { totp: 'abcdef' });
    expect(fifth.json()).toEqual({ status: 'LIMIT_REACHED_ERROR', retryAfterMs: 900_000 });
    clock.advance(31_000);
    const locked = await call(s.access, 'POST', '/auth/totp/verify', { totp: code(s.secret) });
    expect(locked.json()).toMatchObject({ status: 'LIMIT_REACHED_ERROR' });
    clock.advance(900_000);
    expect((await call(s.access, 'POST', '/auth/totp/verify', { totp: code(s.secret) })).json()).toEqual({
      status: 'OK',
    });
  });

  it('removes a device, which turns TOTP off when it was the last one', async () => {
    const s = await withTotp('remove');
    const removed = await call(s.access, 'POST', '/auth/totp/device/remove', { deviceName: 'TOTP Device 1' });
    expect(removed.json()).toEqual({ status: 'OK', didDeviceExist: true });
    const again = await call(s.access, 'POST', '/auth/totp/device/remove', { deviceName: 'TOTP Device 1' });
    expect(again.json()).toEqual({ status: 'OK', didDeviceExist: false });
    expect((await call(s.access, 'GET', '/api/user/second-factors')).json()).toMatchObject({ enabled: [] });
  });

  it('keeps the authenticator when a session opened before it was set up tries to turn TOTP off or remove it', async () => {
    const address = uniqueEmail('older-session');
    const older = await signIn(env, address);
    const owner = await signIn(env, address);
    const created = await call(owner.accessToken, 'POST', '/auth/totp/device', {});
    const verified = await call(owner.accessToken, 'POST', '/auth/totp/device/verify', {
      deviceName: 'TOTP Device 1',
      totp: code(created.json().secret),
    });
    expect(verified.json()).toEqual({ status: 'OK', wasAlreadyVerified: false });

    const turnOff = await call(older.accessToken, 'DELETE', '/api/user/second-factors/totp');
    expect(turnOff.statusCode).toBe(403);
    expect(turnOff.json()).toMatchObject({ code: 'FORBIDDEN', detail: expect.stringContaining('code') });
    const remove = await call(older.accessToken, 'POST', '/auth/totp/device/remove', {
      deviceName: 'TOTP Device 1',
    });
    expect(remove.statusCode).toBe(403);
    expect(remove.json()).toMatchObject({
      message: 'invalid claim',
      claimValidationErrors: [{ id: 'st-mfa' }],
    });

    const ownerAccess = String(verified.headers['st-access-token']);
    expect((await call(ownerAccess, 'GET', '/api/user/second-factors')).json()).toMatchObject({
      enabled: ['totp'],
      totpDevices: [{ name: 'TOTP Device 1', verified: true }],
    });
  });

  it('removes the authenticator only with a fresh code from it', async () => {
    const s = await withTotp('stale');
    clock.advance(10 * 60_000);
    const remove = () => call(s.access, 'POST', '/auth/totp/device/remove', { deviceName: 'TOTP Device 1' });
    expect((await remove()).statusCode).toBe(403);
    expect((await call(s.access, 'DELETE', '/api/user/second-factors/totp')).statusCode).toBe(403);
    expect((await call(s.access, 'GET', '/api/user/second-factors')).json()).toMatchObject({
      enabled: ['totp'],
      totpDevices: [{ name: 'TOTP Device 1', verified: true }],
    });

    // The step-up: a code from the authenticator in this session, then the removal goes through.
    const fresh = await call(s.access, 'POST', '/auth/totp/verify', { totp: code(s.secret) });
    expect(fresh.json()).toEqual({ status: 'OK' });
    s.access = String(fresh.headers['st-access-token']);
    expect((await remove()).json()).toEqual({ status: 'OK', didDeviceExist: true });
    expect((await call(s.access, 'GET', '/api/user/second-factors')).json()).toMatchObject({
      enabled: [],
      totpDevices: [],
    });
  });

  it('turns the email second factor on from the account page; a sign-in by email sets up another kind instead', async () => {
    const s = await signIn(env, uniqueEmail('otp'));
    const address = (s.body.user as { emails: string[] }).emails[0]!;
    const enableTotp = await call(s.accessToken, 'PUT', '/api/user/second-factors/totp');
    expect(enableTotp.statusCode).toBe(409);
    expect(enableTotp.json()).toMatchObject({ code: 'CONFLICT', detail: expect.any(String) });
    const enabled = await call(s.accessToken, 'PUT', '/api/user/second-factors/otp-email');
    expect(enabled.json()).toMatchObject({ enabled: ['otp-email'] });

    // A sign-in by magic link is not complete, but another code to the same inbox is not offered as the
    // second factor: an authenticator app or a passkey is set up instead.
    await createCode(env.app, { email: address });
    const link = new URL(latestMail(env, address).link!);
    const first = await consume(env.app, {
      linkCode: link.hash.slice(1),
      preAuthSessionId: link.searchParams.get('preAuthSessionId'),
    });
    const token = String(first.res.headers['st-access-token']);
    expect(decodeFrontToken(String(first.res.headers['front-token'])).up['st-mfa']).toMatchObject({
      v: false,
    });
    const info = await call(token, 'PUT', '/auth/mfa/info', {});
    expect(info.json()).toMatchObject({
      factors: { next: ['totp', 'webauthn'], allowedToSetup: ['totp', 'webauthn'] },
    });

    const auth = { authorization: `Bearer ${token}` };
    const started = await createCode(
      env.app,
      { email: address, shouldTryLinkingWithSessionUser: true },
      { headers: auth },
    );
    // Adding a brand-new address while the sign-in is incomplete is refused (403 claim error).
    const newAddress = await createCode(
      env.app,
      { email: uniqueEmail('new'), shouldTryLinkingWithSessionUser: true },
      { headers: auth },
    );
    expect(newAddress.res.statusCode).toBe(403);
    const emailed = await consumeMailedCode(env, address, started, { link: true, headers: auth });
    expect(emailed.body.status).toBe('OK');
    const emailedToken = String(emailed.res.headers['st-access-token']);
    expect(decodeFrontToken(String(emailed.res.headers['front-token'])).up['st-mfa']).toMatchObject({
      v: false,
    });
    expect((await getUser(env.app, emailedToken)).statusCode).toBe(403);

    const created = await call(emailedToken, 'POST', '/auth/totp/device', {});
    const verified = await call(emailedToken, 'POST', '/auth/totp/device/verify', {
      deviceName: created.json().deviceName,
      totp: code(created.json().secret),
    });
    expect(verified.json()).toEqual({ status: 'OK', wasAlreadyVerified: false });
    expect(decodeFrontToken(String(verified.headers['front-token'])).up['st-mfa']).toMatchObject({ v: true });
    const done = String(verified.headers['st-access-token']);
    expect((await getUser(env.app, done)).statusCode).toBe(200);

    const disabled = await call(done, 'DELETE', '/api/user/second-factors/otp-email');
    expect(disabled.json()).toMatchObject({ enabled: ['totp'] });
  });

  it('signs out of every device from the account page', async () => {
    const address = uniqueEmail('everywhere');
    const a = await signIn(env, address);
    const b = await signIn(env, address);
    const res = await call(a.accessToken, 'DELETE', '/api/user/sessions');
    expect(res.json()).toEqual({ revoked: 2 });
    expect((await getUser(env.app, b.accessToken)).statusCode).toBe(401);
    expect((await getUser(env.app, a.accessToken)).statusCode).toBe(401);
  });
});

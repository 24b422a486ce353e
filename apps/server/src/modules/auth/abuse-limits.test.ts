import { describe, expect, it } from 'vitest';
import { testDb, useTestEnv } from '../../../test/harness.ts';
import {
  consume,
  createCode,
  latestMail,
  SDK_HEADERS,
  uniqueEmail,
  useFakeClock,
} from './auth.test-helpers.ts';
import { RATE_LIMITED_MESSAGE } from './sign-in.ts';

const LIMITED = { status: 'GENERAL_ERROR', message: RATE_LIMITED_MESSAGE, detail: RATE_LIMITED_MESSAGE };

describe(`sign-in abuse limits on ${testDb}`, () => {
  const env = useTestEnv({
    workers: false,
    env: {
      AUTH_RATE_LIMIT_PER_CONTACT: '3',
      AUTH_RATE_LIMIT_PER_IP: '8',
      AUTH_RATE_LIMIT_WINDOW_SECONDS: '60',
      // The tests vary the client address with X-Forwarded-For, as one trusted proxy in front would.
      TRUST_PROXY: '1',
    },
  });
  const clock = useFakeClock(env);

  const from = (ip: string) => ({ headers: { 'x-forwarded-for': ip } });

  it('limits codes per address (create and resend), in a window that ends', async () => {
    const address = uniqueEmail('contact');
    const first = await createCode(env.app, { email: address }, from('10.0.0.1'));
    await createCode(env.app, { email: address }, from('10.0.0.2'));
    const resend = await env.app.inject({
      method: 'POST',
      url: '/auth/signinup/code/resend',
      headers: { ...SDK_HEADERS, 'x-forwarded-for': '10.0.0.3' },
      payload: { deviceId: first.body.deviceId, preAuthSessionId: first.body.preAuthSessionId },
    });
    expect(resend.json()).toEqual({ status: 'OK' });
    const sent = latestMail(env, address).id;

    const blocked = await createCode(env.app, { email: address }, from('10.0.0.4'));
    expect(blocked.res.statusCode).toBe(200);
    expect(blocked.body).toEqual(LIMITED);
    expect(Number(blocked.res.headers['retry-after'])).toBeGreaterThan(0);
    expect(latestMail(env, address).id).toBe(sent); // nothing was sent
    // Another address from the same place is unaffected.
    expect((await createCode(env.app, { email: uniqueEmail('other') }, from('10.0.0.4'))).body.status).toBe(
      'OK',
    );

    clock.advance(61_000);
    expect((await createCode(env.app, { email: address }, from('10.0.0.5'))).body.status).toBe('OK');
  });

  it('limits requests per IP across addresses', async () => {
    for (let i = 0; i < 8; i++) {
      expect(
        (await createCode(env.app, { email: uniqueEmail(`ip${i}`) }, from('10.9.9.9'))).body.status,
      ).toBe('OK');
    }
    expect((await createCode(env.app, { email: uniqueEmail('ip-over') }, from('10.9.9.9'))).body).toEqual(
      LIMITED,
    );
    expect((await createCode(env.app, { email: uniqueEmail('ip-else') }, from('10.9.9.8'))).body.status).toBe(
      'OK',
    );
  });

  it('counts IPv6 callers by their /64, as the product limits do', async () => {
    // Eight codes from addresses all over one /64 use up that network's budget…
    for (let i = 0; i < 8; i++) {
      const ip = `2001:db8:aa:1:${i.toString(16)}::${i + 1}`;
      expect((await createCode(env.app, { email: uniqueEmail(`v6-${i}`) }, from(ip))).body.status).toBe('OK');
    }
    expect(
      (await createCode(env.app, { email: uniqueEmail('v6-over') }, from('2001:db8:aa:1:ffff::9'))).body,
    ).toEqual(LIMITED);
    // …and the next /64 has a budget of its own.
    expect(
      (await createCode(env.app, { email: uniqueEmail('v6-next') }, from('2001:db8:aa:2::1'))).body.status,
    ).toBe('OK');
  });

  it('limits code guesses per login attempt even across IPs', async () => {
    const address = uniqueEmail('guess');
    const { body } = await createCode(env.app, { email: address }, from('10.1.0.1'));
    const guess = (ip: string) =>
      consume(
        env.app,
        { userInputCode: '000000', deviceId: body.deviceId, preAuthSessionId: 'x'.repeat(43) },
        from(ip),
      );
    // Unknown attempts count against the attempt id (and the caller's IP).
    for (let i = 0; i < 3; i++)
      expect((await guess(`10.2.0.${i}`)).body).toEqual({ status: 'RESTART_FLOW_ERROR' });
    expect((await guess('10.2.0.9')).body).toEqual(LIMITED);
  });
});

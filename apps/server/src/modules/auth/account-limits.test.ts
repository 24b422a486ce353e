import { describe, expect, it } from 'vitest';
import { testDb, useTestEnv } from '../../../test/harness.ts';
import {
  authOf,
  consume,
  createCode,
  latestMail,
  SDK_HEADERS,
  uniqueEmail,
  useFakeClock,
} from './auth.test-helpers.ts';
import { RATE_LIMITED_MESSAGE } from './sign-in.ts';

/**
 * Per-account limits on sign-in: the daily cap and doubling wait on wrong codes, and the throttle on
 * "does this address have an account?". The caller's address is the socket's (inject's remoteAddress),
 * so these hold whether or not a proxy's X-Forwarded-For is trusted.
 */

const LIMITED = { status: 'GENERAL_ERROR', message: RATE_LIMITED_MESSAGE, detail: RATE_LIMITED_MESSAGE };

describe(`wrong sign-in codes per account on ${testDb}`, () => {
  const env = useTestEnv({
    workers: false,
    env: {
      AUTH_RATE_LIMIT_PER_CONTACT: '1000',
      AUTH_RATE_LIMIT_PER_IP: '1000',
      AUTH_CODE_GUESSES_PER_DAY: '8',
      AUTH_CODE_BACKOFF_AFTER: '3',
      AUTH_CODE_BACKOFF_BASE_SECONDS: '2',
    },
  });
  const clock = useFakeClock(env);

  async function start(address: string) {
    const { body } = await createCode(env.app, { email: address });
    expect(body.status).toBe('OK');
    const code = latestMail(env, address).code!;
    const wrong = code === '000000' ? '111111' : '000000';
    const attempt = (userInputCode: string) =>
      consume(env.app, { userInputCode, deviceId: body.deviceId, preAuthSessionId: body.preAuthSessionId });
    return { code, wrong, attempt };
  }

  it('doubles the wait after the third wrong code in a row, across new codes, until a right one', async () => {
    const address = uniqueEmail('backoff');
    let flow = await start(address);
    for (let n = 1; n <= 4; n++) {
      expect((await flow.attempt(flow.wrong)).body).toMatchObject({
        status: 'INCORRECT_USER_INPUT_CODE_ERROR',
        failedCodeInputAttemptCount: n,
      });
    }
    // Four wrong in a row, one beyond the three allowed: the next try waits 2 s, even with the right code.
    const early = await flow.attempt(flow.code);
    expect(early.body).toEqual({
      status: 'GENERAL_ERROR',
      message: 'Too many wrong codes. Please wait 2 seconds, then try again.',
      detail: 'Too many wrong codes. Please wait 2 seconds, then try again.',
    });
    expect(early.res.headers['retry-after']).toBe('2');

    clock.advance(2_000);
    // The fifth wrong code ends this attempt (PASSWORDLESS_MAX_CODE_ATTEMPTS) and doubles the wait to 4 s.
    expect((await flow.attempt(flow.wrong)).body).toEqual({ status: 'RESTART_FLOW_ERROR' });
    flow = await start(address);
    const refused = await flow.attempt(flow.code);
    expect(refused.body).toMatchObject({ status: 'GENERAL_ERROR' });
    expect(refused.res.headers['retry-after']).toBe('4');
    clock.advance(3_000);
    expect((await flow.attempt(flow.code)).res.headers['retry-after']).toBe('1');
    clock.advance(1_000);
    expect((await flow.attempt(flow.wrong)).body).toMatchObject({
      status: 'INCORRECT_USER_INPUT_CODE_ERROR',
    });
    clock.advance(8_000);
    expect((await flow.attempt(flow.code)).body).toMatchObject({ status: 'OK' });

    // The right code ended the streak: the next wrong one is answered at once.
    flow = await start(address);
    expect((await flow.attempt(flow.wrong)).body).toMatchObject({
      status: 'INCORRECT_USER_INPUT_CODE_ERROR',
    });
    expect((await flow.attempt(flow.wrong)).body).toMatchObject({
      status: 'INCORRECT_USER_INPUT_CODE_ERROR',
    });
  });

  it('stops taking codes for an account after the daily number of wrong ones, until the day is over', async () => {
    const address = uniqueEmail('daily');
    for (let round = 0; round < 4; round++) {
      const flow = await start(address);
      for (let n = 0; n < 2; n++) {
        expect((await flow.attempt(flow.wrong)).body).toMatchObject({
          status: 'INCORRECT_USER_INPUT_CODE_ERROR',
        });
      }
      // A right code between rounds keeps the streak short, so only the daily cap is in play.
      if (round < 3) expect((await flow.attempt(flow.code)).body).toMatchObject({ status: 'OK' });
    }
    const flow = await start(address);
    const capped = await flow.attempt(flow.code);
    expect(capped.body).toMatchObject({
      status: 'GENERAL_ERROR',
      message: 'Too many wrong codes for this account today. Please try again tomorrow.',
    });
    expect(Number(capped.res.headers['retry-after'])).toBeGreaterThan(80_000);
    // Other accounts are unaffected.
    const other = await start(uniqueEmail('other'));
    expect((await other.attempt(other.code)).body).toMatchObject({ status: 'OK' });

    clock.advance(86_400_000);
    const tomorrow = await start(address);
    expect((await tomorrow.attempt(tomorrow.code)).body).toMatchObject({ status: 'OK' });
  });
});

/**
 * Wrong codes sent all at once are counted as they are taken, not after they are checked: however many
 * arrive together, no more than the limits allow are ever compared with the code. Counted by the
 * answers' shapes (a checked code is an FDI code error, a refused one the GENERAL_ERROR with the wait).
 */
describe.each([
  { limit: 'the doubling wait', perDay: '1000', backoffAfter: '3', checked: 4 },
  { limit: 'the daily cap', perDay: '3', backoffAfter: '1000', checked: 3 },
])(`wrong codes sent at once, against $limit, on ${testDb}`, ({ perDay, backoffAfter, checked }) => {
  const env = useTestEnv({
    workers: false,
    env: {
      AUTH_RATE_LIMIT_PER_CONTACT: '1000',
      AUTH_RATE_LIMIT_PER_IP: '1000',
      AUTH_CODE_GUESSES_PER_DAY: perDay,
      AUTH_CODE_BACKOFF_AFTER: backoffAfter,
      // Far longer than the burst takes on a slow machine, so no wait runs out in the middle of it.
      AUTH_CODE_BACKOFF_BASE_SECONDS: '3600',
    },
  });

  it(`checks ${checked} of 50 wrong codes sent together and refuses the rest`, async () => {
    const address = uniqueEmail('burst');
    // Ten open sign-in attempts, five wrong codes each: the per-attempt cap (5) is never what stops them.
    const flows = [];
    for (let n = 0; n < 10; n++) flows.push((await createCode(env.app, { email: address })).body);
    const codes = new Set(
      authOf(env)
        .mailbox!.list({ to: address })
        .map((m) => m.code),
    );
    const wrong = ['000000', '111111', '222222'].find((c) => !codes.has(c))!;
    const answers = await Promise.all(
      flows.flatMap((flow) =>
        Array.from({ length: 5 }, () =>
          consume(env.app, {
            userInputCode: wrong,
            deviceId: flow.deviceId,
            preAuthSessionId: flow.preAuthSessionId,
          }),
        ),
      ),
    );
    expect(answers.map((a) => a.res.statusCode)).toEqual(Array(50).fill(200));
    const statuses = answers.map((a) => a.body.status);
    expect(statuses.filter((s) => s === 'INCORRECT_USER_INPUT_CODE_ERROR')).toHaveLength(checked);
    expect(statuses.filter((s) => s === 'GENERAL_ERROR')).toHaveLength(50 - checked);
  });
});

describe(`"does this address have an account?" is throttled, on ${testDb}`, () => {
  const env = useTestEnv({
    workers: false,
    env: {
      AUTH_RATE_LIMIT_PER_CONTACT: '3',
      AUTH_RATE_LIMIT_PER_IP: '5',
      AUTH_RATE_LIMIT_WINDOW_SECONDS: '60',
    },
  });

  const exists = (address: string, ip: string) =>
    env.app.inject({
      method: 'GET',
      url: `/auth/passwordless/email/exists?email=${encodeURIComponent(address)}`,
      headers: SDK_HEADERS,
      remoteAddress: ip,
    });

  it('limits probes per IP', async () => {
    for (let i = 0; i < 5; i++) {
      expect((await exists(uniqueEmail(`probe${i}`), '10.3.0.1')).json()).toEqual({
        status: 'OK',
        exists: false,
      });
    }
    const over = await exists(uniqueEmail('probe-over'), '10.3.0.1');
    expect(over.statusCode).toBe(200);
    expect(over.json()).toEqual(LIMITED);
    expect(Number(over.headers['retry-after'])).toBeGreaterThan(0);
    expect((await exists(uniqueEmail('probe-else'), '10.3.0.2')).json()).toMatchObject({ status: 'OK' });
  });

  it('limits probes of one account from many IPs, without touching its sign-in', async () => {
    const address = uniqueEmail('target');
    for (let i = 0; i < 3; i++) {
      expect((await exists(address, `10.4.0.${i}`)).json()).toMatchObject({ status: 'OK' });
    }
    expect((await exists(address, '10.4.0.9')).json()).toEqual(LIMITED);
    expect((await exists(uniqueEmail('someone-else'), '10.4.0.9')).json()).toMatchObject({ status: 'OK' });
    expect((await createCode(env.app, { email: address })).body.status).toBe('OK');
  });
});

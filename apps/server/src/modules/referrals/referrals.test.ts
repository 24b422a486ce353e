import { ALREADY_REFERRED, type ReferralCodeView, type ReferralStats } from '@lumina/contracts';
import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useTestEnv, type TestEnv } from '../../../test/harness.ts';
import { signedInClient, type Client } from '../../../test/support/api.ts';
import { payments, referralCodes, referrals, users } from '../../db/schema/index.ts';

/**
 * The referral programme's codes, binding, validation and numbers (issue 14), through HTTP on a real
 * database. Completion and rewards are referral-rewards' (R2); where numbers depend on them, the
 * columns R2 writes are set directly.
 */

let n = 0;
const person = (env: TestEnv, first = 'alice') =>
  signedInClient(env, first, { email: `${first}.smith-${Date.now()}-${n++}@example.test` });

async function defaultCode(client: Client): Promise<ReferralCodeView> {
  const res = await client.call('GET', '/api/referrals/stats');
  expect(res.statusCode).toBe(200);
  return (res.json() as ReferralStats).codes[0]!;
}

const track = (client: Client, code: string) =>
  client.call('POST', `/api/referrals/track?referral_code=${encodeURIComponent(code)}`);

/** Every binding in the database (refusals must leave it as it was). */
async function bindings(env: TestEnv) {
  return env.container.database.db.select().from(referrals).orderBy(referrals.id);
}

async function codeRows(env: TestEnv, userId: string) {
  return env.container.database.db
    .select()
    .from(referralCodes)
    .where(eq(referralCodes.userId, userId))
    .orderBy(referralCodes.createdAt);
}

let address = 0;
/** A fresh client address for the public validate route (its budget is per address). */
const nextAddress = () => `10.9.${Math.floor(++address / 250)}.${address % 250}`;

const validate = (env: TestEnv, code: string, remoteAddress = nextAddress()) =>
  env.app.inject({
    method: 'GET',
    url: `/api/referrals/validate/${encodeURIComponent(code)}`,
    remoteAddress,
  });

describe('referrals: codes, tracking, validation, stats', () => {
  const env = useTestEnv({
    workers: false,
    env: {
      REFERRAL_VALIDATE_PER_MINUTE: '5',
      REFERRAL_TRACK_PER_MINUTE: '10',
      REFERRAL_BIND_WINDOW_DAYS: '7',
      // Many writes from one test address: the per-address write budget is not what is tested here.
      RATE_LIMIT_IP_WRITE_PER_MINUTE: '100000',
    },
  });

  describe('codes', () => {
    it('gives everyone a readable default code on first need, the same one after', async () => {
      const alice = await person(env);
      expect(await codeRows(env, alice.userId)).toHaveLength(0);
      const stats = (await alice.call('GET', '/api/referrals/stats')).json() as ReferralStats;
      expect(stats).toMatchObject({
        visits: 0,
        signups: 0,
        completed: 0,
        credits_earned: 0,
        reward_credits: env.config.referrals.rewardCredits,
        welcome_credits: env.config.referrals.welcomeCredits,
        monthly_cap: env.config.referrals.monthlyCap,
        rewarded_this_month: 0,
      });
      expect(stats.codes).toHaveLength(1);
      const [code] = stats.codes;
      expect(code!.code).toMatch(/^[ABCDEFGHJKMNPQRSTUVWXYZ23456789]{8}$/);
      expect(code).toMatchObject({ is_default: true, active: true, expired: false, expires_at: null });
      expect(code!.link).toBe(`${env.config.auth.webUrl.replace(/\/$/, '')}/?ref=${code!.code}`);
      expect((await defaultCode(alice)).code).toBe(code!.code);
      expect(await codeRows(env, alice.userId)).toHaveLength(1);
    });

    it('makes a chosen code, unique without regard to case, or a generated one', async () => {
      const alice = await person(env);
      const bob = await person(env, 'bob');
      const chosen = `Summer-${n++}`;
      const made = await alice.call('POST', '/api/referrals/referral-codes', { code: chosen });
      expect(made.statusCode).toBe(201);
      expect(made.json()).toMatchObject({ code: chosen, is_default: false, active: true, signups: 0 });

      await defaultCode(bob);
      const before = await codeRows(env, bob.userId);
      const taken = await bob.call('POST', '/api/referrals/referral-codes', { code: chosen.toUpperCase() });
      expect(taken.statusCode).toBe(409);
      expect(taken.json().detail).toBe('That code is taken.');
      expect(await codeRows(env, bob.userId)).toEqual(before);

      const generated = await alice.call('POST', '/api/referrals/referral-codes', { code: '' });
      expect(generated.statusCode).toBe(201);
      expect(generated.json().code).toMatch(/^[A-Z2-9]{8}$/);
      const omitted = await alice.call('POST', '/api/referrals/referral-codes', {});
      expect(omitted.statusCode).toBe(201);
      // The default, made on first need, and the three above.
      expect(await codeRows(env, alice.userId)).toHaveLength(4);
    });

    it('refuses bad codes, past expiries and more than 20 codes, changing nothing', async () => {
      const alice = await person(env);
      await defaultCode(alice);
      for (const code of ['ab', 'has space', 'x'.repeat(33), 'ünïcode']) {
        const res = await alice.call('POST', '/api/referrals/referral-codes', { code });
        expect(res.statusCode, code).toBe(400);
        expect(res.json().detail).toBeTruthy();
      }
      const past = await alice.call('POST', '/api/referrals/referral-codes', {
        expires_at: new Date(Date.now() - 60_000).toISOString(),
      });
      expect(past.statusCode).toBe(400);
      expect(past.json().detail).toBe('expires_at must be in the future.');
      const notADate = await alice.call('POST', '/api/referrals/referral-codes', { expires_at: 'soon' });
      expect(notADate.statusCode).toBe(400);
      expect(await codeRows(env, alice.userId)).toHaveLength(1);

      const future = new Date(Date.now() + 86_400_000).toISOString();
      const expiring = await alice.call('POST', '/api/referrals/referral-codes', { expires_at: future });
      expect(expiring.statusCode).toBe(201);
      expect(new Date(expiring.json().expires_at).getTime()).toBe(new Date(future).getTime());

      for (let i = 2; i < 20; i++) {
        expect((await alice.call('POST', '/api/referrals/referral-codes', {})).statusCode).toBe(201);
      }
      const over = await alice.call('POST', '/api/referrals/referral-codes', {});
      expect(over.statusCode).toBe(400);
      expect(over.json().detail).toMatch(/at most 20 codes/);
      expect(await codeRows(env, alice.userId)).toHaveLength(20);
      // Deleting one frees its place.
      const del = await alice.call('DELETE', `/api/referrals/referral-codes/${expiring.json().code}`);
      expect(del.statusCode).toBe(200);
      expect((await alice.call('POST', '/api/referrals/referral-codes', {})).statusCode).toBe(201);
    });

    it('refuses an expiry that is not on the calendar with a clear 400, storing nothing; real dates are kept exactly', async () => {
      const alice = await person(env);
      await defaultCode(alice);
      const before = await codeRows(env, alice.userId);
      for (const expires_at of [
        '2027-02-30T12:00:00Z',
        '2027-13-01T12:00:00Z',
        '2027-02-29T12:00:00Z',
        '2027-04-31T12:00:00Z',
        '2027-01-31T24:00:00Z',
        '2027-01-31T23:60:00Z',
        '2027-01-31T23:59:60Z',
        '2027-01-31T12:00:00+24:00',
        '2027-01-31T12:00:00',
        '2027-00-10T12:00:00Z',
      ]) {
        const res = await alice.call('POST', '/api/referrals/referral-codes', { expires_at });
        expect(res.statusCode, expires_at).toBe(400);
        expect(res.json().detail, expires_at).toMatch(/expires_at is a date and time that exists/);
      }
      expect(await codeRows(env, alice.userId)).toEqual(before);

      for (const [expires_at, stored] of [
        ['2028-02-29T12:00:00Z', '2028-02-29T12:00:00.000Z'],
        ['2027-12-31T23:59:59.999+02:00', '2027-12-31T21:59:59.999Z'],
        ['2027-03-01T00:00:00-05:00', '2027-03-01T05:00:00.000Z'],
      ] as const) {
        const res = await alice.call('POST', '/api/referrals/referral-codes', { expires_at });
        expect(res.statusCode, expires_at).toBe(201);
        expect(res.json().expires_at, expires_at).toBe(stored);
      }
    });

    it('holds the cap of 20 when creates race', async () => {
      const alice = await person(env);
      await defaultCode(alice);
      for (let i = 1; i < 18; i++) await alice.call('POST', '/api/referrals/referral-codes', {});
      const results = await Promise.all(
        Array.from({ length: 6 }, () => alice.call('POST', '/api/referrals/referral-codes', {})),
      );
      expect(results.map((r) => r.statusCode).sort()).toEqual([201, 201, 400, 400, 400, 400]);
      expect(await codeRows(env, alice.userId)).toHaveLength(20);
    });

    it('toggles and deletes only one’s own codes; the default can only be turned off', async () => {
      const alice = await person(env);
      const bob = await person(env, 'bob');
      const own = (await alice.call('POST', '/api/referrals/referral-codes', {})).json().code as string;
      const aliceDefault = (await defaultCode(alice)).code;
      const before = await codeRows(env, alice.userId);

      for (const [method, url] of [
        ['PUT', `/api/referrals/referral-codes/${own}/toggle`],
        ['DELETE', `/api/referrals/referral-codes/${own}`],
        ['PUT', `/api/referrals/referral-codes/${aliceDefault}/toggle`],
        ['PUT', `/api/referrals/referral-codes/NOSUCHCODE/toggle`],
        ['DELETE', `/api/referrals/referral-codes/NOSUCHCODE`],
      ] as const) {
        const res = await bob.call(method, url);
        expect(res.statusCode, `${method} ${url}`).toBe(404);
        expect(res.json().detail).toBe('This code was not found.');
      }
      expect(await codeRows(env, alice.userId)).toEqual(before);

      const off = await alice.call('PUT', `/api/referrals/referral-codes/${own.toLowerCase()}/toggle`);
      expect(off.statusCode).toBe(200);
      expect(off.json()).toMatchObject({ code: own, active: false });
      const on = await alice.call('PUT', `/api/referrals/referral-codes/${own}/toggle`);
      expect(on.json().active).toBe(true);

      const delDefault = await alice.call('DELETE', `/api/referrals/referral-codes/${aliceDefault}`);
      expect(delDefault.statusCode).toBe(400);
      expect(delDefault.json().detail).toMatch(/Turn it off instead/);
      const defaultOff = await alice.call('PUT', `/api/referrals/referral-codes/${aliceDefault}/toggle`);
      expect(defaultOff.json()).toMatchObject({ is_default: true, active: false });

      expect((await alice.call('DELETE', `/api/referrals/referral-codes/${own}`)).json()).toEqual({
        deleted: true,
      });
      // Gone for its owner too, but the row (and its history) stays.
      expect((await alice.call('DELETE', `/api/referrals/referral-codes/${own}`)).statusCode).toBe(404);
      expect((await alice.call('PUT', `/api/referrals/referral-codes/${own}/toggle`)).statusCode).toBe(404);
      const rows = await codeRows(env, alice.userId);
      expect(rows.find((r) => r.code === own)?.deletedAt).toBeInstanceOf(Date);
      // Without history a deleted code is left out of the numbers.
      const stats = (await alice.call('GET', '/api/referrals/stats')).json() as ReferralStats;
      expect(stats.codes.map((c) => c.code)).toEqual([aliceDefault]);
    });
  });

  describe('tracking', () => {
    it('binds the person to the code’s owner once, naming the owner, never their email', async () => {
      const alice = await person(env);
      const newcomer = await person(env, 'newcomer');
      const code = (await defaultCode(alice)).code;
      const res = await track(newcomer, code.toLowerCase());
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({
        referrer_name: 'Alice',
        welcome_credits: env.config.referrals.welcomeCredits,
      });
      const [row] = (await bindings(env)).filter((b) => b.referredId === newcomer.userId);
      expect(row).toMatchObject({ referrerId: alice.userId, status: 'joined', referrerReward: 0 });
      // A keyed hash of the address, not the address.
      expect(row!.signupIpHash).toMatch(/^[0-9a-f]{64}$/);
      expect(row!.signupIpHash).not.toContain('127.0.0.1');

      const again = await track(newcomer, code);
      expect(again.statusCode).toBe(409);
      expect(again.json().detail).toBe(ALREADY_REFERRED);
      const bob = await person(env, 'bob');
      const other = await track(newcomer, (await defaultCode(bob)).code);
      expect(other.statusCode).toBe(409);
      expect(other.json().detail).toBe(ALREADY_REFERRED);
      expect((await bindings(env)).filter((b) => b.referredId === newcomer.userId)).toHaveLength(1);
    });

    it('refuses one’s own, unknown, inactive, deleted and expired codes, and late accounts', async () => {
      const alice = await person(env);
      const newcomer = await person(env, 'newcomer');
      const { db } = env.container.database;
      const aliceDefault = (await defaultCode(alice)).code;
      const make = async () =>
        (await alice.call('POST', '/api/referrals/referral-codes', {})).json().code as string;
      const inactive = await make();
      await alice.call('PUT', `/api/referrals/referral-codes/${inactive}/toggle`);
      const deleted = await make();
      await alice.call('DELETE', `/api/referrals/referral-codes/${deleted}`);
      const expired = await make();
      await db
        .update(referralCodes)
        .set({ expiresAt: new Date(Date.now() - 1000) })
        .where(eq(referralCodes.code, expired));
      const newcomerCode = (await defaultCode(newcomer)).code;

      const before = await bindings(env);
      const refusals: Array<[string, number, string]> = [
        [newcomerCode, 400, 'You cannot use your own invitation.'],
        ['NOSUCHCODE', 404, 'This code was not found.'],
        [inactive, 400, 'This invitation is no longer active.'],
        [deleted, 400, 'This invitation is no longer active.'],
        [expired, 400, 'This invitation has expired.'],
        ['a', 400, ''],
      ];
      for (const [code, status, detail] of refusals) {
        const res = await track(newcomer, code);
        expect(res.statusCode, code).toBe(status);
        if (detail) expect(res.json().detail).toBe(detail);
        else expect(res.json().detail).toBeTruthy();
      }
      expect(await bindings(env)).toEqual(before);

      // Alice has been here a month; eight days after the newcomer signed up is past the seven-day window.
      await db
        .update(users)
        .set({ createdAt: sql`now() - interval '30 days'` })
        .where(eq(users.id, alice.userId));
      await db
        .update(users)
        .set({ createdAt: sql`now() - interval '8 days'` })
        .where(eq(users.id, newcomer.userId));
      const late = await track(newcomer, aliceDefault);
      expect(late.statusCode).toBe(400);
      expect(late.json().detail).toBe('Invitations can only be accepted within 7 days of signing up.');
      expect(await bindings(env)).toEqual(before);
      // Six days in, still within it.
      await db
        .update(users)
        .set({ createdAt: sql`now() - interval '6 days'` })
        .where(eq(users.id, newcomer.userId));
      expect((await track(newcomer, aliceDefault)).statusCode).toBe(200);
    });

    it('refuses the invitation of someone the caller invited', async () => {
      const alice = await person(env);
      const newcomer = await person(env, 'newcomer');
      expect((await track(newcomer, (await defaultCode(alice)).code)).statusCode).toBe(200);
      const before = await bindings(env);
      const back = await track(alice, (await defaultCode(newcomer)).code);
      expect(back.statusCode).toBe(400);
      expect(back.json().detail).toBe('You cannot accept an invitation from someone you invited.');
      expect(await bindings(env)).toEqual(before);
    });

    it('accepts only an invitation from someone who joined first: no rings, no invitations after paying', async () => {
      const a = await person(env, 'ring-a');
      const b = await person(env, 'ring-b');
      const c = await person(env, 'ring-c');
      // c joined last: b's invitation binds c, a's binds b; a ring back to a cannot close.
      expect((await track(c, (await defaultCode(b)).code)).statusCode).toBe(200);
      expect((await track(b, (await defaultCode(a)).code)).statusCode).toBe(200);
      const before = await bindings(env);
      const back = await track(a, (await defaultCode(c)).code);
      expect(back.statusCode).toBe(400);
      expect(back.json().detail).toBe(
        'This invitation is from someone who joined after you, so it cannot be accepted.',
      );
      // Once bound, any code at all (even an unknown one) answers exactly ALREADY_REFERRED.
      const again = await track(c, 'NO-SUCH-CODE');
      expect(again.statusCode).toBe(409);
      expect(again.json().detail).toBe(ALREADY_REFERRED);
      // Someone who has paid already cannot be bound: their first payment is behind them.
      const { db } = env.container.database;
      const payer = await person(env, 'payer');
      await db.insert(payments).values({
        userId: payer.userId,
        packageId: 'starter',
        packageName: 'Starter',
        credits: 100,
        amountCents: 500,
        currency: 'usd',
        status: 'paid',
        paidAt: new Date(),
        stripeSessionId: `cs_test_${payer.userId}`,
        successUrl: 'http://localhost/s',
        cancelUrl: 'http://localhost/c',
      });
      const late = await track(payer, (await defaultCode(a)).code);
      expect(late.statusCode).toBe(400);
      expect(late.json().detail).toBe('Invitations can only be accepted before your first purchase.');
      expect(await bindings(env)).toEqual(before);
    });

    it('binds once when two tracks of the same person race', async () => {
      const alice = await person(env);
      const bob = await person(env, 'bob');
      const newcomer = await person(env, 'newcomer');
      const codes = [(await defaultCode(alice)).code, (await defaultCode(bob)).code];
      const results = await Promise.all([...codes, ...codes].map((code) => track(newcomer, code)));
      const statuses = results.map((r) => r.statusCode).sort();
      expect(statuses).toEqual([200, 409, 409, 409]);
      for (const r of results.filter((x) => x.statusCode === 409)) {
        expect(r.json().detail).toBe(ALREADY_REFERRED);
      }
      expect((await bindings(env)).filter((b) => b.referredId === newcomer.userId)).toHaveLength(1);
    });

    it('answers a loop of tracking calls with 429, never a server error', async () => {
      const alice = await person(env);
      const newcomer = await person(env, 'newcomer');
      const code = (await defaultCode(alice)).code;
      const statuses: number[] = [];
      for (let batch = 0; batch < 20; batch++) {
        const results = await Promise.all(Array.from({ length: 50 }, () => track(newcomer, code)));
        statuses.push(...results.map((r) => r.statusCode));
      }
      expect(statuses).toHaveLength(1000);
      expect(statuses.filter((s) => s >= 500)).toEqual([]);
      expect(statuses.filter((s) => s === 200)).toHaveLength(1);
      // The track budget (10 a minute) is met before the general write budget (60).
      expect(statuses.filter((s) => s === 429)).toHaveLength(990);
      const limited = await track(newcomer, code);
      expect(limited.statusCode).toBe(429);
      expect(limited.headers['retry-after']).toBeDefined();
      expect(limited.json().detail).toMatch(/Too many requests/);
      expect((await bindings(env)).filter((b) => b.referredId === newcomer.userId)).toHaveLength(1);
    });

    it('needs a signed-in person for every route but validate', async () => {
      for (const [method, url] of [
        ['GET', '/api/referrals/stats'],
        ['GET', '/api/referrals/referrals'],
        ['POST', '/api/referrals/referral-codes'],
        ['PUT', '/api/referrals/referral-codes/ABCD/toggle'],
        ['DELETE', '/api/referrals/referral-codes/ABCD'],
        ['POST', '/api/referrals/track?referral_code=ABCD'],
        ['GET', '/api/referrals/complete/ABCD'],
      ] as const) {
        expect((await env.app.inject({ method, url })).statusCode, url).toBe(401);
      }
    });
  });

  describe('validation (public)', () => {
    it('says whether a code binds and why not, never 404', async () => {
      const alice = await person(env);
      const code = (await defaultCode(alice)).code;
      const ok = await validate(env, code.toLowerCase());
      expect(ok.statusCode).toBe(200);
      expect(ok.json()).toEqual({
        valid: true,
        reason: null,
        referrer_name: 'Alice',
        welcome_credits: env.config.referrals.welcomeCredits,
      });
      for (const [what, reason] of [
        ['NOSUCHCODE', 'This invitation was not found.'],
        ['!!', 'This invitation was not found.'],
      ] as const) {
        const res = await validate(env, what);
        expect(res.statusCode).toBe(200);
        expect(res.json()).toMatchObject({ valid: false, reason, referrer_name: null });
      }
      await alice.call('PUT', `/api/referrals/referral-codes/${code}/toggle`);
      expect((await validate(env, code)).json()).toMatchObject({
        valid: false,
        reason: 'This invitation is no longer active.',
        referrer_name: null,
      });
    });

    it('counts a visit once per address per code per hour, and only for a valid code', async () => {
      const alice = await person(env);
      const code = (await defaultCode(alice)).code;
      const here = nextAddress();
      await validate(env, code, here);
      await validate(env, code.toLowerCase(), here);
      await validate(env, code, nextAddress());
      const stats = (await alice.call('GET', '/api/referrals/stats')).json() as ReferralStats;
      expect(stats.visits).toBe(2);
      expect(stats.codes[0]!.visits).toBe(2);
      await alice.call('PUT', `/api/referrals/referral-codes/${code}/toggle`);
      await validate(env, code, nextAddress());
      expect(((await alice.call('GET', '/api/referrals/stats')).json() as ReferralStats).visits).toBe(2);
    });

    it('limits validations per address', async () => {
      const here = nextAddress();
      const statuses: number[] = [];
      for (let i = 0; i < 7; i++) statuses.push((await validate(env, 'NOSUCHCODE', here)).statusCode);
      expect(statuses).toEqual([200, 200, 200, 200, 200, 429, 429]);
      // Another address has its own budget.
      expect((await validate(env, 'NOSUCHCODE')).statusCode).toBe(200);
    });
  });

  describe('numbers and lists', () => {
    /** Alice with four people bound through two codes, their states as referral-rewards would leave them. */
    async function aliceWithReferrals() {
      const alice = await person(env);
      const first = (await defaultCode(alice)).code;
      const second = (await alice.call('POST', '/api/referrals/referral-codes', {})).json().code as string;
      const people = [];
      for (const [name, code] of [
        ['carol', first],
        ['dave', first],
        ['erin', second],
        ['frank', second],
      ] as const) {
        const p = await person(env, name);
        expect((await track(p, code)).statusCode).toBe(200);
        people.push(p);
      }
      const { db } = env.container.database;
      const set = (p: Client, values: Partial<typeof referrals.$inferInsert>) =>
        db.update(referrals).set(values).where(eq(referrals.referredId, p.userId));
      const now = new Date();
      await set(people[0]!, {
        status: 'completed',
        referrerReward: 100,
        welcomeReward: 50,
        completedAt: now,
      });
      await set(people[2]!, {
        status: 'clawed_back',
        referrerReward: 100,
        welcomeReward: 50,
        completedAt: now,
        clawedBackAt: now,
      });
      await set(people[3]!, { status: 'unrewarded', welcomeReward: 50, completedAt: now });
      return { alice, first, second, people };
    }

    it('counts sign-ups, completions, credits kept and this month’s rewards, per code', async () => {
      const { alice, first, second } = await aliceWithReferrals();
      const stats = (await alice.call('GET', '/api/referrals/stats')).json() as ReferralStats;
      expect(stats).toMatchObject({
        signups: 4,
        // completed and completed-unrewarded; the clawed back one's payment was refunded.
        completed: 2,
        credits_earned: 100,
        rewarded_this_month: 2,
      });
      expect(stats.codes.map((c) => [c.code, c.signups, c.completed, c.credits_earned])).toEqual([
        [first, 2, 1, 100],
        [second, 2, 1, 0],
      ]);
      // A deleted code with history stays in the numbers, marked inactive.
      await alice.call('DELETE', `/api/referrals/referral-codes/${second}`);
      const after = (await alice.call('GET', '/api/referrals/stats')).json() as ReferralStats;
      expect(after.codes.map((c) => [c.code, c.active, c.signups])).toEqual([
        [first, true, 2],
        [second, false, 2],
      ]);
      // Nobody else sees them.
      const bob = await person(env, 'bob');
      const bobs = (await bob.call('GET', '/api/referrals/stats')).json() as ReferralStats;
      expect(bobs).toMatchObject({ signups: 0, completed: 0, credits_earned: 0, rewarded_this_month: 0 });
      expect(bobs.codes.map((c) => c.code)).not.toContain(first);
    });

    it('lists the people who joined through the caller, masked, newest first; nobody else’s', async () => {
      const { alice, first, second, people } = await aliceWithReferrals();
      const res = await alice.call('GET', '/api/referrals/referrals');
      expect(res.statusCode).toBe(200);
      const list = res.json().referrals as Array<Record<string, unknown>>;
      expect(list.map((r) => [r.code, r.status, r.reward_credits])).toEqual([
        [second, 'unrewarded', 0],
        [second, 'clawed_back', 0],
        [first, 'joined', 0],
        [first, 'completed', 100],
      ]);
      expect(list.map((r) => r.email)).toEqual([
        'f•••@e•••.test',
        'e•••@e•••.test',
        'd•••@e•••.test',
        'c•••@e•••.test',
      ]);
      expect(JSON.stringify(list)).not.toContain(people[0]!.email);
      expect(list[3]!.completed_at).toEqual(expect.any(String));
      expect(list[2]!.completed_at).toBeNull();

      const bob = await person(env, 'bob');
      expect((await bob.call('GET', '/api/referrals/referrals')).json()).toEqual({ referrals: [] });
      // The person referred sees nobody either (they referred no one).
      expect((await people[0]!.call('GET', '/api/referrals/referrals')).json()).toEqual({ referrals: [] });
    });

    it('tells the caller their own completion state for a code, and nobody else’s', async () => {
      const { alice, first, second, people } = await aliceWithReferrals();
      const mine = await people[0]!.call('GET', `/api/referrals/complete/${first.toLowerCase()}`);
      expect(mine.statusCode).toBe(200);
      expect(mine.json()).toMatchObject({
        bound: true,
        status: 'completed',
        completed: true,
        welcome_credits: 50,
      });
      expect(mine.json().completed_at).toEqual(expect.any(String));
      expect((await people[1]!.call('GET', `/api/referrals/complete/${first}`)).json()).toMatchObject({
        bound: true,
        status: 'joined',
        completed: false,
        completed_at: null,
        welcome_credits: 0,
      });
      const notThrough = {
        bound: false,
        status: null,
        completed: false,
        completed_at: null,
        welcome_credits: 0,
        settles_at: null,
      };
      // Bound, but through another code.
      expect((await people[0]!.call('GET', `/api/referrals/complete/${second}`)).json()).toEqual(notThrough);
      // The code's owner, and a stranger, learn nothing of the people bound through it.
      expect((await alice.call('GET', `/api/referrals/complete/${first}`)).json()).toEqual(notThrough);
      const bob = await person(env, 'bob');
      expect((await bob.call('GET', `/api/referrals/complete/${first}`)).json()).toEqual(notThrough);
      expect((await bob.call('GET', '/api/referrals/complete/NOSUCHCODE')).json()).toEqual(notThrough);
      expect((await bob.call('GET', '/api/referrals/complete/a')).statusCode).toBe(400);
    });
  });
});

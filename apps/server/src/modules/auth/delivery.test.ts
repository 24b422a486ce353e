import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestEnv, testDb, type TestEnv, useTestEnv } from '../../../test/harness.ts';
import { consume, createCode, getUser, latestMail, signIn } from './auth.test-helpers.ts';
import { TEST_C2PA_SIGNING } from '../../../test/support/c2pa-signing.ts';

interface Received {
  to: string[];
  raw: string;
}

/** A real SMTP server on a random local port, collecting what it receives. */
async function startSmtp(): Promise<{ port: number; received: Received[]; close(): Promise<void> }> {
  const received: Received[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        received.push({
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as { port: number }).port;
  return { port, received, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

describe(`sign-in delivery on ${testDb}`, () => {
  describe('SMTP', () => {
    let smtp: Awaited<ReturnType<typeof startSmtp>>;
    let env: TestEnv;
    beforeAll(async () => {
      smtp = await startSmtp();
      env = await startTestEnv({
        workers: false,
        env: { SMTP_URL: `smtp://127.0.0.1:${smtp.port}`, MAIL_FROM: 'Lumina <signin@lumina.test>' },
      });
    });
    afterAll(async () => {
      await env.close();
      await smtp.close();
    });

    it('sends the code and the link as HTML and text through the SMTP server, and hides the dev mailbox', async () => {
      const { body } = await createCode(env.app, { email: 'smtp-user@example.test' });
      expect(body.status).toBe('OK');
      expect(smtp.received).toHaveLength(1);
      const message = smtp.received[0]!;
      expect(message.to).toEqual(['smtp-user@example.test']);
      const raw = message.raw.replace(/=\r?\n/g, '');
      expect(raw).toMatch(/From: Lumina <signin@lumina\.test>/);
      expect(raw).toMatch(/Subject: Your Lumina sign-in code: \d{6}/);
      expect(raw).toContain('text/plain');
      expect(raw).toContain('text/html');
      const code = /sign-in code: (\d{6})/.exec(raw)![1]!;
      expect(raw).toContain(`preAuthSessionId=3D${body.preAuthSessionId}`);

      const done = await consume(env.app, {
        userInputCode: code,
        deviceId: body.deviceId,
        preAuthSessionId: body.preAuthSessionId,
      });
      expect(done.body.status).toBe('OK');
      // With SMTP and no SMS sender, the dev mailbox still exists for SMS only; email never lands there.
      const box = await env.app.inject({ method: 'GET', url: '/api/dev/mailbox' });
      expect(box.json()).toEqual([]);
    });
  });

  describe('phone numbers (dev SMS)', () => {
    const env = useTestEnv({ workers: false, env: { PASSWORDLESS_CONTACT_METHOD: 'EMAIL_OR_PHONE' } });

    it('signs in by phone with the SMS code; the profile has no email', async () => {
      const phone = '+14155550123';
      const invalid = await createCode(env.app, { phoneNumber: '12' });
      expect(invalid.body).toEqual({ status: 'GENERAL_ERROR', message: 'Phone number is invalid' });
      const { body } = await createCode(env.app, { phoneNumber: '+1 (415) 555-0123' });
      const sms = latestMail(env, phone);
      expect(sms.channel).toBe('sms');
      expect(sms.text).toContain(sms.code);
      const done = await consume(env.app, {
        userInputCode: sms.code,
        deviceId: body.deviceId,
        preAuthSessionId: body.preAuthSessionId,
      });
      expect(done.body).toMatchObject({ status: 'OK', user: { phoneNumbers: [phone], emails: [] } });
      const me = await getUser(env.app, String(done.res.headers['st-access-token']));
      expect(me.json()).toMatchObject({ email: null });
      const exists = await env.app.inject({
        method: 'GET',
        url: `/auth/passwordless/phonenumber/exists?phoneNumber=${encodeURIComponent(phone)}`,
      });
      expect(exists.json()).toEqual({ status: 'OK', exists: true });
      const methods = await env.app.inject({ method: 'GET', url: '/auth/loginmethods' });
      expect(methods.json().firstFactors).toEqual([
        'otp-email',
        'otp-phone',
        'link-email',
        'link-phone',
        'webauthn',
      ]);
    });
  });

  describe('production', () => {
    const env = useTestEnv({
      workers: false,
      env: {
        NODE_ENV: 'production',
        FILE_URL_SECRET: 'x'.repeat(40),
        AUTH_KEYS_ENCRYPTION_KEY: 'k'.repeat(43),
        EMAIL_VERIFICATION: 'required',
        STRIPE_SECRET_KEY: 'sk_test_unused',
        STRIPE_WEBHOOK_SECRET: 'whsec_unused',
        ...TEST_C2PA_SIGNING,
      },
    });

    it('has no development mailbox route, and sessions carry st-ev when verification is required', async () => {
      const res = await env.app.inject({ method: 'GET', url: '/api/dev/mailbox' });
      expect(res.statusCode).toBe(404);
      // The web app reads the mode (no session needed) and makes its EmailVerification recipe REQUIRED.
      const settings = await env.app.inject({ method: 'GET', url: '/api/auth/config' });
      expect(settings.statusCode).toBe(200);
      expect(settings.json()).toEqual({ emailVerification: 'required' });
      const s = await signIn(env, 'prod-user@example.test');
      expect(s.frontToken.up['st-ev']).toEqual({ v: true, t: expect.any(Number) });
      expect((await getUser(env.app, s.accessToken)).statusCode).toBe(200);
    });
  });
});

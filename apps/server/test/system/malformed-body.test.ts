import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { startTestEnv, testDb } from '../harness.ts';
import { signedInClient } from '../support/api.ts';
import { captureLog } from '../support/log-capture.ts';

/**
 * Sends `head` and then `body` on a fresh connection (in one write, or a moment apart) and reads the
 * answer until the server closes the connection.
 */
async function rawRequest(port: number, head: string, body: string, apart: boolean) {
  const answer = await new Promise<string>((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => {
      if (!apart) return socket.write(head + body);
      socket.write(head);
      setTimeout(() => socket.write(body), 50);
    });
    let text = '';
    socket.on('data', (data) => (text += data));
    socket.on('close', () => resolve(text));
    socket.on('error', reject);
    // Generous: the server closes the connection as soon as it has answered.
    socket.setTimeout(20_000, () => socket.destroy(new Error('no answer')));
  });
  const [statusLine = '', ...rest] = answer.split('\r\n');
  return { statusLine, body: rest.join('\r\n').split('\r\n\r\n')[1] ?? '' };
}

describe(`a chunked body with a malformed chunk size, on ${testDb}`, () => {
  const writes = [
    ['POST', '/api/prompt'],
    ['DELETE', '/api/images/00000000-0000-4000-8000-000000000000'],
    ['POST', '/api/referrals/referral-codes'],
    ['POST', '/api/webhooks/fal'],
  ] as const;

  it('is a 400 in the error body shape on every write route, signed in or not, and logs no error', async () => {
    const log = captureLog();
    // Not `info`: logging each request reads the client's address early, which hid a failure (a request
    // whose connection had closed by the time a rate limit asked for the address).
    const env = await startTestEnv({
      workers: false,
      listen: true,
      env: { LOG_LEVEL: 'warn' },
      logTo: log.stream,
    });
    let closed = false;
    try {
      const { accessToken } = await signedInClient(env, 'alice');
      const port = Number(new URL(env.baseUrl!).port);
      for (const [method, path] of writes) {
        for (const token of [undefined, accessToken]) {
          // In one write the bad size is read before the route's hooks run; apart, while it reads the body.
          for (const apart of [false, true]) {
            const head =
              `${method} ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n` +
              `${token ? `Authorization: Bearer ${token}\r\n` : ''}Transfer-Encoding: chunked\r\n\r\n`;
            const res = await rawRequest(port, head, 'zz\r\n{}\r\n0\r\n\r\n', apart);
            const where = `${method} ${path} ${token ? 'signed in' : 'anonymous'} ${apart ? 'apart' : 'together'}`;
            expect(res.statusLine, where).toBe('HTTP/1.1 400 Bad Request');
            expect(JSON.parse(res.body), where).toEqual({
              detail: 'The request could not be read: its body is not valid HTTP (a broken chunk or length).',
              code: 'VALIDATION_FAILED',
              requestId: expect.stringMatching(/^[0-9a-f-]{36}$/),
            });
          }
        }
      }
      // The server still serves.
      expect((await fetch(`${env.baseUrl}/api/health`)).status).toBe(200);
      // And none of those requests is still running when the server shuts down.
      closed = true;
      await env.close();
      expect(log.lines.filter((l) => (l.level as number) >= 50)).toEqual([]);
      expect(log.lines.filter((l) => l.msg === 'shutting down with requests still running')).toEqual([]);
    } finally {
      if (!closed) await env.close();
    }
  });
});

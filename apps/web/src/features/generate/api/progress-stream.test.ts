import { afterAll, describe, expect, it } from 'vitest';
import type { ServerResponse } from 'node:http';
import { contracts } from '@lumina/contracts';
import { setupLocalServer } from '@/testing/api-server';
import { fakeJob } from '@/testing/app-harness';
import { answerError, progressEvent } from '@/testing/fake-api';
import { createSseParser, readProgressStream, StreamError, type SseEvent } from './progress-stream';

function parseAll(chunks: string[]) {
  const events: SseEvent[] = [];
  const parser = createSseParser((e) => events.push(e));
  for (const chunk of chunks) parser.feed(chunk);
  return events;
}

describe('SSE parser', () => {
  it('parses named events, skips comments and joins multi-line data', () => {
    expect(
      parseAll([': ping\n\n', 'event: progress\ndata: {"a":1}\n\n', 'data: line 1\ndata: line 2\nid: 7\n\n']),
    ).toEqual([
      { event: 'progress', data: '{"a":1}', id: undefined },
      { event: 'message', data: 'line 1\nline 2', id: '7' },
    ]);
  });

  it('handles chunks split anywhere, CRLF and CR line endings', () => {
    const text = 'event: progress\r\ndata: {"jobs":[]}\r\n\r\nevent: progress\rdata: x\r\r\n';
    const whole = parseAll([text]);
    const bytes = parseAll(text.split(''));
    expect(whole).toEqual([
      { event: 'progress', data: '{"jobs":[]}', id: undefined },
      { event: 'progress', data: 'x', id: undefined },
    ]);
    expect(bytes).toEqual(whole);
  });

  it('ignores events without data and fields without a value', () => {
    expect(parseAll(['event: progress\n\n', 'retry: 1000\ndata\n\n'])).toEqual([
      { event: 'message', data: '', id: undefined },
    ]);
  });
});

describe('progress stream against a real SSE server', () => {
  const server = setupLocalServer();
  const open: ServerResponse[] = [];
  afterAll(() => {
    for (const res of open) res.destroy();
  });

  const sse = (res: ServerResponse) => {
    open.push(res);
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    res.flushHeaders();
  };

  it('sends the bearer token and delivers each progress snapshot, however the bytes are split', async () => {
    const queued = fakeJob({ status: 'queued', queue_position: 2 });
    const running = { ...queued, status: 'running' as const, queue_position: null, percent: 40 };
    server.on(contracts.progressStream, async (_req, res) => {
      sse(res);
      res.write(': ping\n\n');
      const first = progressEvent({ jobs: [queued] });
      res.write(first.slice(0, 20));
      await new Promise((r) => setTimeout(r, 20));
      res.write(first.slice(20));
      res.write(progressEvent({ jobs: [running] }));
      res.write('event: other\ndata: {}\n\n');
      res.end();
    });
    const snapshots: unknown[] = [];
    let opened = false;
    await readProgressStream({
      signal: new AbortController().signal,
      baseUrl: server.url,
      getToken: () => 'tok-1',
      onOpen: () => (opened = true),
      onSnapshot: (s) => snapshots.push(s),
    });
    expect(opened).toBe(true);
    expect(snapshots).toEqual([{ jobs: [queued] }, { jobs: [running] }]);
    const request = server.requests.at(-1);
    expect(request?.headers.authorization).toBe('Bearer tok-1');
    expect(request?.headers.accept).toBe('text/event-stream');
  });

  it('rejects with the status when the server refuses the stream', async () => {
    server.on(contracts.progressStream, () => answerError(401, 'UNAUTHORISED', 'no'));
    const error = await readProgressStream({
      signal: new AbortController().signal,
      baseUrl: server.url,
      getToken: () => null,
      onSnapshot: () => undefined,
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StreamError);
    expect((error as StreamError).status).toBe(401);
  });

  it('gives up on a stream that goes silent (no data and no ping)', async () => {
    server.on(contracts.progressStream, (_req, res) => {
      sse(res);
      res.write(progressEvent({ jobs: [] }));
    });
    const snapshots: unknown[] = [];
    const error = await readProgressStream({
      signal: new AbortController().signal,
      baseUrl: server.url,
      getToken: () => null,
      idleTimeoutMs: 150,
      onSnapshot: (s) => snapshots.push(s),
    }).catch((e: unknown) => e);
    expect(snapshots).toEqual([{ jobs: [] }]);
    expect(error).toBeInstanceOf(StreamError);
    expect((error as Error).message).toMatch(/silent/);
  });
});

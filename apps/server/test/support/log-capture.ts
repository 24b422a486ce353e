import { Writable } from 'node:stream';

/** The log lines one app writes (`logTo` of startTestEnv), parsed: pino writes one JSON object per line. */
export function captureLog() {
  const lines: Array<Record<string, unknown>> = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  return { lines, stream };
}

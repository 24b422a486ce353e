import { randomBytes } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import type { TestEnv } from '../harness.ts';
import type { Client } from './api.ts';

export interface FilePart {
  filename: string;
  bytes: Buffer;
  /** What the browser claims; the server must not trust it. */
  contentType?: string;
}

/** A multipart/form-data body, built by hand so tests control every byte (names, types, order). */
export function multipartBody(parts: Record<string, string | FilePart>) {
  const boundary = `----lumina${randomBytes(8).toString('hex')}`;
  const chunks: Buffer[] = [];
  for (const [name, value] of Object.entries(parts)) {
    chunks.push(Buffer.from(`--${boundary}\r\n`));
    if (typeof value === 'string') {
      chunks.push(Buffer.from(`Content-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
    } else {
      chunks.push(
        Buffer.from(
          `Content-Disposition: form-data; name="${name}"; filename="${value.filename}"\r\n` +
            `Content-Type: ${value.contentType ?? 'application/octet-stream'}\r\n\r\n`,
        ),
        value.bytes,
        Buffer.from('\r\n'),
      );
    }
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}

/** Posts a multipart form as a signed-in person. */
export function postForm(
  env: TestEnv,
  client: Client | undefined,
  url: string,
  parts: Record<string, string | FilePart>,
): Promise<LightMyRequestResponse> {
  const body = multipartBody(parts);
  return env.app.inject({
    method: 'POST',
    url,
    headers: {
      'content-type': body.contentType,
      ...(client ? { authorization: `Bearer ${client.accessToken}` } : {}),
    },
    payload: body.payload,
  });
}

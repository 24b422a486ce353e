import { ProgressResponse, progressStreamContract } from '@lumina/contracts';
import type { z } from 'zod';
import { env } from '@/config/env';
import { getAccessToken } from '@/lib/auth';

export interface SseEvent {
  event: string;
  data: string;
  id?: string;
}

/**
 * An incremental Server-Sent Events parser (the WHATWG event-stream format): feed it text as it arrives,
 * in chunks of any size; it calls `onEvent` for every complete event. Comments (`: ping`) are skipped.
 */
export function createSseParser(onEvent: (event: SseEvent) => void) {
  let buffer = '';
  let eventName = '';
  let data: string[] = [];
  let id: string | undefined;

  const dispatch = () => {
    if (data.length > 0) onEvent({ event: eventName || 'message', data: data.join('\n'), id });
    eventName = '';
    data = [];
  };

  const line = (text: string) => {
    if (text === '') return dispatch();
    if (text.startsWith(':')) return;
    const colon = text.indexOf(':');
    const field = colon === -1 ? text : text.slice(0, colon);
    let value = colon === -1 ? '' : text.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'event') eventName = value;
    else if (field === 'data') data.push(value);
    else if (field === 'id' && !value.includes('\0')) id = value;
  };

  return {
    feed(chunk: string) {
      buffer += chunk;
      // A lone trailing \r may be the first half of \r\n: keep it until the next chunk says.
      for (;;) {
        const match = /\r\n|\r(?!$)|\n/.exec(buffer);
        if (!match) break;
        line(buffer.slice(0, match.index));
        buffer = buffer.slice(match.index + match[0].length);
      }
    },
  };
}

export type ProgressSnapshot = z.infer<typeof ProgressResponse>;

export interface ProgressStreamOptions {
  signal: AbortSignal;
  onOpen?: () => void;
  onSnapshot: (snapshot: ProgressSnapshot) => void;
  /** Absolute or same-origin base of the API; the configured one by default. */
  baseUrl?: string;
  getToken?: () => Promise<string | null | undefined> | string | null | undefined;
  /** No bytes (not even a `: ping`, sent every 15 s) for this long means the connection is dead. */
  idleTimeoutMs?: number;
}

export class StreamError extends Error {
  override readonly name = 'StreamError';
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
  }
}

/**
 * Reads `GET /api/progress/stream` with `fetch` (EventSource cannot send the bearer header) and calls
 * `onSnapshot` with each `progress` event's parsed `{jobs}`. Resolves when the server ends the stream;
 * rejects when it cannot connect, goes silent or answers with something that is not an event stream.
 */
export async function readProgressStream(options: ProgressStreamOptions): Promise<void> {
  const { signal, idleTimeoutMs = 45_000 } = options;
  const headers = new Headers({ Accept: 'text/event-stream' });
  const token = await (options.getToken ?? getAccessToken)();
  if (token) headers.set('Authorization', `Bearer ${token}`);

  // One controller for the request: aborted by the caller, or by the watchdog when the stream goes quiet.
  const controller = new AbortController();
  const abort = () => controller.abort();
  signal.addEventListener('abort', abort, { once: true });
  let idle: ReturnType<typeof setTimeout> | undefined;
  let timedOut = false;
  const touch = () => {
    clearTimeout(idle);
    idle = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, idleTimeoutMs);
  };

  try {
    touch();
    const response = await fetch(`${options.baseUrl ?? env.apiBase}${progressStreamContract.path}`, {
      headers,
      signal: controller.signal,
      cache: 'no-store',
    });
    const type = response.headers.get('content-type') ?? '';
    if (!response.ok || !response.body || !type.includes('text/event-stream')) {
      throw new StreamError(`Progress stream unavailable (${response.status})`, response.status);
    }
    options.onOpen?.();
    const parser = createSseParser((event) => {
      if (event.event !== 'progress') return;
      const parsed = ProgressResponse.safeParse(JSON.parse(event.data));
      if (parsed.success) options.onSnapshot(parsed.data);
      else console.warn('Ignoring a progress event that does not match the contract', parsed.error);
    });
    const reader = response.body.getReader();
    const decoder = new TextDecoder();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      touch();
      parser.feed(decoder.decode(value, { stream: true }));
    }
  } catch (error) {
    if (timedOut) throw new StreamError('Progress stream went silent');
    throw error;
  } finally {
    clearTimeout(idle);
    signal.removeEventListener('abort', abort);
  }
}

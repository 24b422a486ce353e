import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { gunzipSync } from 'node:zlib';

/** One event as PostHog's capture API received it, with the endpoint it came through. */
export interface CapturedEvent {
  event: string;
  properties: Record<string, unknown>;
  distinct_id?: string;
  uuid?: string;
  timestamp?: string;
  api_key?: string;
  /** The path it was posted to (`/e/`, `/batch/`, `/i/v0/e/` …). */
  path: string;
  /** Order of arrival, across every request. */
  seq: number;
}

export interface FakePostHog {
  url: string;
  events: CapturedEvent[];
  /** Every request's method and path, in order (flags, config, capture). */
  requests: Array<{ method: string; path: string }>;
  reset(): void;
  close(): Promise<void>;
}

const CAPTURE_PATHS = [
  '/e/',
  '/e',
  '/i/v0/e/',
  '/i/v0/e',
  '/batch/',
  '/batch',
  '/capture/',
  '/capture',
  '/track/',
];

function cors(req: IncomingMessage, res: ServerResponse) {
  res.setHeader('access-control-allow-origin', req.headers.origin ?? '*');
  res.setHeader('access-control-allow-credentials', 'true');
  res.setHeader('access-control-allow-headers', req.headers['access-control-request-headers'] ?? '*');
  res.setHeader('access-control-allow-methods', 'GET, POST, OPTIONS');
}

/**
 * Decodes a capture body the way PostHog's ingestion does: gzip (`Content-Encoding: gzip` from
 * posthog-node, `?compression=gzip-js` or just the gzip magic bytes from posthog-js), base64 (`?compression=base64` or a form
 * field `data=`), or plain JSON; then one event, an array of events, or `{ batch: [...] }`.
 */
export function decodeCaptureBody(
  body: Buffer,
  headers: IncomingMessage['headers'],
  search: URLSearchParams,
): Array<Omit<CapturedEvent, 'path' | 'seq'>> {
  let raw = body;
  const compression = search.get('compression');
  // posthog-js may send a gzip body with no marker in the URL: the gzip magic bytes tell.
  const gzipped = raw.length > 2 && raw[0] === 0x1f && raw[1] === 0x8b;
  if (
    gzipped ||
    headers['content-encoding'] === 'gzip' ||
    compression === 'gzip-js' ||
    compression === 'gzip'
  ) {
    raw = gunzipSync(raw);
  }
  let text = raw.toString('utf8');
  const contentType = String(headers['content-type'] ?? '');
  if (contentType.includes('application/x-www-form-urlencoded')) {
    text = new URLSearchParams(text).get('data') ?? '';
    text = Buffer.from(text, 'base64').toString('utf8');
  } else if (compression === 'base64') {
    text = Buffer.from(text, 'base64').toString('utf8');
  }
  const parsed = JSON.parse(text) as unknown;
  const list = Array.isArray(parsed)
    ? parsed
    : parsed && typeof parsed === 'object' && 'batch' in parsed
      ? (parsed as { batch: unknown[]; api_key?: string }).batch.map((e) => ({
          api_key: (parsed as { api_key?: string }).api_key,
          ...(e as object),
        }))
      : [parsed];
  return list as Array<Omit<CapturedEvent, 'path' | 'seq'>>;
}

/**
 * A local stand-in for PostHog speaking its capture API on 127.0.0.1: capture endpoints record events;
 * `/flags/` and `/decide/` answer "no flags, no extras"; `GET /_test/events` lists what arrived (for a
 * browser test in another process) and `POST /_test/reset` empties it.
 */
export async function startFakePostHog(options: { port?: number } = {}): Promise<FakePostHog> {
  const events: CapturedEvent[] = [];
  const requests: FakePostHog['requests'] = [];
  let seq = 0;
  const server: Server = createServer((req, res) => {
    cors(req, res);
    const url = new URL(req.url ?? '/', 'http://fake');
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.method === 'OPTIONS') return void res.writeHead(204).end();
      if (!url.pathname.startsWith('/_test/'))
        requests.push({ method: req.method ?? 'GET', path: url.pathname });
      const json = (status: number, value: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(value));
      };
      if (url.pathname === '/_test/events') return json(200, { events });
      if (url.pathname === '/_test/reset') {
        events.length = 0;
        requests.length = 0;
        return json(200, { ok: true });
      }
      if (url.pathname.startsWith('/flags') || url.pathname.startsWith('/decide')) {
        return json(200, {
          featureFlags: {},
          featureFlagPayloads: {},
          flags: {},
          errorsWhileComputingFlags: false,
          sessionRecording: false,
          supportedCompression: ['gzip-js', 'base64'],
          autocaptureExceptions: true,
          capturePerformance: false,
          surveys: false,
          heatmaps: false,
          toolbarParams: {},
          siteApps: [],
        });
      }
      if (url.pathname.startsWith('/array/')) {
        // Remote config: nothing to add.
        if (url.pathname.endsWith('.js')) {
          res.writeHead(200, { 'content-type': 'application/javascript' });
          return void res.end('');
        }
        return json(200, { supportedCompression: ['gzip-js', 'base64'], sessionRecording: false });
      }
      if (req.method === 'POST' && CAPTURE_PATHS.includes(url.pathname)) {
        try {
          for (const event of decodeCaptureBody(Buffer.concat(chunks), req.headers, url.searchParams)) {
            const properties = event.properties ?? {};
            // posthog-node sends distinct_id beside the event; posthog-js inside its properties.
            const distinctId = event.distinct_id ?? (properties.distinct_id as string | undefined);
            events.push({ ...event, distinct_id: distinctId, properties, path: url.pathname, seq: seq++ });
          }
          return json(200, { status: 1 });
        } catch (err) {
          return json(400, { error: (err as Error).message });
        }
      }
      json(404, { error: 'not found' });
    });
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    events,
    requests,
    reset() {
      events.length = 0;
      requests.length = 0;
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

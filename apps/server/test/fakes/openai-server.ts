import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { readRequest, sendJson, startFakeServer } from './http.ts';
import { fakePng, loopbackFetch } from './png.ts';

/**
 * A fake OpenAI Images API (docs/reference/providers/self-hosted.md part A) on 127.0.0.1, for the official
 * `openai` SDK pointed at `<url>/v1`: `POST /v1/images/generations` (JSON) and `POST /v1/images/edits`
 * (multipart; the file under `image` or repeated `image[]`), answering GPT-image style `b64_json` with
 * real PNGs of the asked size, an `x-request-id`, and OpenAI's error shape for a wrong key (401), a
 * moderation refusal (400 `moderation_blocked`), rate limiting (429) and a server error (500).
 * Also the moderation endpoint, `POST /v1/moderations` (a string or an array of strings; one result per
 * string, every category with a score, `flagged` when one reaches 0.5), scoring each text with
 * `moderationScores` (a test sets it; by default nothing is flagged).
 */

/** The moderation endpoint's categories, as OpenAI names them. */
export const OPENAI_MODERATION_CATEGORIES = [
  'harassment',
  'harassment/threatening',
  'hate',
  'hate/threatening',
  'illicit',
  'illicit/violent',
  'self-harm',
  'self-harm/intent',
  'self-harm/instructions',
  'sexual',
  'sexual/minors',
  'violence',
  'violence/graphic',
] as const;

export type OpenAIModerationCategory = (typeof OPENAI_MODERATION_CATEGORIES)[number];

export type OpenAIOutcome = 'ok' | 'moderation' | 'rate-limit' | 'error';

export interface OpenAIFakeRequest {
  endpoint: 'generations' | 'edits' | 'moderations';
  requestId: string;
  /** JSON body, or the multipart text fields. */
  fields: Record<string, unknown>;
  /** Multipart files by field name (`image`, `image[]`, `mask`). */
  files: Array<{ field: string; name: string; type: string; bytes: Buffer }>;
  outcome: OpenAIOutcome;
  /** The PNGs answered. */
  images: Buffer[];
}

export interface OpenAIFake {
  url: string;
  key: string;
  requests: OpenAIFakeRequest[];
  urlsSeen: string[];
  fetch: typeof fetch;
  defaultOutcome: OpenAIOutcome;
  /** The moderation scores of one text (categories not given score near zero). */
  moderationScores: (text: string) => Partial<Record<OpenAIModerationCategory, number>>;
  /** The outcome of the next request (then back to the default). */
  next(outcome: OpenAIOutcome): void;
  reset(): void;
  close(): Promise<void>;
}

const error = (message: string, type: string, code: string | null, param: string | null = null) => ({
  error: { message, type, param, code },
});

export async function startOpenAIFake(): Promise<OpenAIFake> {
  const queued: OpenAIOutcome[] = [];
  const fake: OpenAIFake = {
    url: '',
    key: `sk-test-${randomBytes(8).toString('hex')}`,
    requests: [],
    urlsSeen: [],
    fetch: undefined as unknown as typeof fetch,
    defaultOutcome: 'ok',
    moderationScores: () => ({}),
    next: (outcome) => queued.push(outcome),
    reset() {
      queued.length = 0;
      fake.requests.length = 0;
      fake.urlsSeen.length = 0;
      fake.defaultOutcome = 'ok';
      fake.moderationScores = () => ({});
    },
    close: () => Promise.resolve(),
  };
  fake.fetch = loopbackFetch(fake.urlsSeen);

  const server = await startFakeServer(async (req: IncomingMessage, res: ServerResponse) => {
    const { raw, body, url, method } = await readRequest(req, 'http://127.0.0.1');
    const requestId = `req_${randomBytes(12).toString('hex')}`;
    const headers = { 'x-request-id': requestId };
    if (req.headers.authorization !== `Bearer ${fake.key}`) {
      // As OpenAI does, the message quotes the given key, masked.
      const given = (req.headers.authorization ?? '').replace(/^Bearer /, '');
      return sendJson(
        res,
        401,
        error(
          `Incorrect API key provided: ${given.slice(0, 8)}***${given.slice(-4)}. You can find your API key at https://platform.openai.com/account/api-keys.`,
          'invalid_request_error',
          'invalid_api_key',
        ),
        headers,
      );
    }
    const route = `${method} ${url.pathname}`;
    let request: OpenAIFakeRequest;
    if (route === 'POST /v1/images/generations') {
      request = {
        endpoint: 'generations',
        requestId,
        fields: JSON.parse(body) as Record<string, unknown>,
        files: [],
        outcome: 'ok',
        images: [],
      };
    } else if (route === 'POST /v1/moderations') {
      const fields = JSON.parse(body) as Record<string, unknown>;
      const texts = typeof fields.input === 'string' ? [fields.input] : fields.input;
      if (!Array.isArray(texts) || !texts.every((t) => typeof t === 'string')) {
        return sendJson(
          res,
          400,
          error("Invalid type for 'input'.", 'invalid_request_error', 'invalid_type', 'input'),
          headers,
        );
      }
      request = { endpoint: 'moderations', requestId, fields, files: [], outcome: 'ok', images: [] };
      request.outcome = queued.shift() ?? fake.defaultOutcome;
      fake.requests.push(request);
      if (request.outcome === 'rate-limit' || request.outcome === 'error') {
        const status = request.outcome === 'rate-limit' ? 429 : 500;
        return sendJson(
          res,
          status,
          error('The server had an error while processing your request.', 'server_error', null),
          headers,
        );
      }
      return sendJson(
        res,
        200,
        {
          id: `modr-${randomBytes(6).toString('hex')}`,
          model: String(fields.model ?? 'omni-moderation-latest'),
          results: texts.map((text: string) => {
            const given = fake.moderationScores(text);
            const scores = Object.fromEntries(
              OPENAI_MODERATION_CATEGORIES.map((c) => [c, given[c] ?? 0.000_01]),
            ) as Record<OpenAIModerationCategory, number>;
            const categories = Object.fromEntries(
              OPENAI_MODERATION_CATEGORIES.map((c) => [c, scores[c] >= 0.5]),
            );
            return {
              flagged: Object.values(categories).some(Boolean),
              categories,
              category_scores: scores,
              category_applied_input_types: Object.fromEntries(
                OPENAI_MODERATION_CATEGORIES.map((c) => [c, ['text']]),
              ),
            };
          }),
        },
        headers,
      );
    } else if (route === 'POST /v1/images/edits') {
      const contentType = req.headers['content-type'] ?? '';
      if (!contentType.startsWith('multipart/form-data')) {
        return sendJson(
          res,
          400,
          error('Expected multipart/form-data', 'invalid_request_error', null),
          headers,
        );
      }
      const form = await new Response(new Uint8Array(raw), {
        headers: { 'content-type': contentType },
      }).formData();
      const fields: Record<string, unknown> = {};
      const files: OpenAIFakeRequest['files'] = [];
      for (const [field, value] of form.entries()) {
        if (typeof value === 'string') fields[field] = value;
        else
          files.push({
            field,
            name: value.name,
            type: value.type,
            bytes: Buffer.from(await value.arrayBuffer()),
          });
      }
      if (!files.some((f) => f.field === 'image' || f.field === 'image[]')) {
        return sendJson(
          res,
          400,
          error(
            "Missing required parameter: 'image'.",
            'invalid_request_error',
            'missing_required_parameter',
            'image',
          ),
          headers,
        );
      }
      request = { endpoint: 'edits', requestId, fields, files, outcome: 'ok', images: [] };
    } else {
      return sendJson(
        res,
        404,
        error(`Invalid URL (${method} ${url.pathname})`, 'invalid_request_error', null),
        headers,
      );
    }
    request.outcome = queued.shift() ?? fake.defaultOutcome;
    fake.requests.push(request);
    switch (request.outcome) {
      case 'moderation':
        return sendJson(
          res,
          400,
          error(
            'Your request was rejected by the safety system. If you believe this is an error, contact us at help.openai.com and include the request ID.',
            'image_generation_user_error',
            'moderation_blocked',
          ),
          headers,
        );
      case 'rate-limit':
        return sendJson(
          res,
          429,
          error(
            'Rate limit reached for gpt-image-1 in organization org-test on images per minute.',
            'requests',
            'rate_limit_exceeded',
          ),
          {
            ...headers,
            'retry-after': '1',
          },
        );
      case 'error':
        return sendJson(
          res,
          500,
          error(
            'The server had an error while processing your request. Sorry about that!',
            'server_error',
            null,
          ),
          headers,
        );
    }
    const size = String(request.fields.size ?? '1024x1024');
    const [width, height] = (size === 'auto' ? '1024x1024' : size).split('x').map(Number) as [number, number];
    const n = Number(request.fields.n ?? 1);
    request.images = await Promise.all(Array.from({ length: n }, (_, i) => fakePng(width, height, i + 3)));
    return sendJson(
      res,
      200,
      {
        created: Math.floor(Date.now() / 1000),
        background: 'opaque',
        output_format: request.fields.output_format ?? 'png',
        quality: 'medium',
        size,
        data: request.images.map((png) => ({ b64_json: png.toString('base64') })),
        usage: {
          input_tokens: 50,
          input_tokens_details: { text_tokens: 50, image_tokens: request.files.length * 323 },
          output_tokens: 1056,
          total_tokens: 1106,
        },
      },
      headers,
    );
  });
  fake.url = server.url;
  fake.close = server.close;
  return fake;
}

import type { z } from 'zod';
import { buildPath, ErrorCode, errorCodeForStatus, type Contract } from '@lumina/contracts';
import { env } from '@/config/env';
import { i18n } from '@/lib/i18n';

/** Codes the client adds to the server's `ErrorCode`s for failures that never produced an error body. */
export type ClientErrorCode = ErrorCode | 'NETWORK_ERROR' | 'INVALID_RESPONSE';

/** The one error type every API call rejects with. `detail` is always a message a person understands. */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  constructor(
    readonly status: number,
    readonly code: ClientErrorCode,
    readonly detail: string,
    readonly requestId?: string,
    options?: { cause?: unknown },
  ) {
    super(detail, options);
  }
}

export type AccessTokenGetter = () => string | null | undefined | Promise<string | null | undefined>;

type Absent = z.ZodNever;
type Field<K extends string, S, Optional extends boolean> = [S] extends [Absent]
  ? { [P in K]?: never }
  : Optional extends true
    ? { [P in K]?: z.input<S> }
    : { [P in K]: z.input<S> };

/** What a call through a contract takes: path params and body when the contract has them, query always optional. */
export type CallOptions<C extends Contract> =
  C extends Contract<infer P, infer Q, infer B, z.ZodType>
    ? Field<'params', P, false> & Field<'query', Q, true> & Field<'body', B, false> & { signal?: AbortSignal }
    : never;

export type CallResult<C extends Contract> = z.output<C['response']>;

export interface ApiClientOptions {
  /** Absolute URL or path prefix put before every contract path; empty for same origin. */
  baseUrl?: string;
  getAccessToken?: AccessTokenGetter;
  fetch?: typeof fetch;
}

function fallbackDetail(code: ClientErrorCode): string {
  return i18n.t(`errors.codes.${code}`);
}

function toQueryString(query: unknown): string {
  if (!query || typeof query !== 'object') return '';
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === null) continue;
    for (const item of Array.isArray(value) ? value : [value]) search.append(key, String(item));
  }
  const text = search.toString();
  return text ? `?${text}` : '';
}

async function readJson(response: Response): Promise<unknown> {
  const text = await response.text();
  if (!text) return undefined;
  return JSON.parse(text) as unknown;
}

function errorFromBody(status: number, body: unknown): ApiError {
  const record = body && typeof body === 'object' ? (body as Record<string, unknown>) : {};
  const parsedCode = ErrorCode.safeParse(record.code);
  const code = parsedCode.success ? parsedCode.data : errorCodeForStatus(status);
  const detail =
    typeof record.detail === 'string' && record.detail.trim() ? record.detail : fallbackDetail(code);
  const requestId = typeof record.requestId === 'string' ? record.requestId : undefined;
  return new ApiError(status, code, detail, requestId);
}

/** A multipart call: the form goes as `multipart/form-data` (the browser sets the boundary). */
export interface FormCallOptions {
  params?: Record<string, string | number>;
  signal?: AbortSignal;
}

export interface ApiClient {
  call<C extends Contract>(contract: C, options?: CallOptions<C>): Promise<CallResult<C>>;
  /** Sends `form` to a multipart endpoint and parses the JSON answer with the contract's response schema. */
  callForm<C extends Contract>(
    contract: C,
    form: FormData,
    options?: FormCallOptions,
  ): Promise<CallResult<C>>;
  /** Sends `form` to a multipart endpoint that answers with bytes (e.g. an image); errors as in `call`. */
  callFormForBlob<C extends Contract>(contract: C, form: FormData, options?: FormCallOptions): Promise<Blob>;
  /** A call whose answer is a file (e.g. a zip), read as bytes with the caller's credentials; errors as in `call`. */
  callForBlob<C extends Contract>(contract: C, options?: CallOptions<C>): Promise<Blob>;
}

export function createApiClient(options: ApiClientOptions = {}): ApiClient {
  const baseUrl = (options.baseUrl ?? '').replace(/\/+$/, '');
  const doFetch = options.fetch ?? ((input, init) => fetch(input, init));

  /** Sends one request; rejects with ApiError on a network failure or a non-2xx answer. */
  async function send(
    contract: Contract,
    request: {
      params?: Record<string, string | number>;
      query?: unknown;
      body?: BodyInit;
      contentType?: string;
      accept: string;
      signal?: AbortSignal;
    },
  ): Promise<Response> {
    const url = `${baseUrl}${buildPath(contract.path, request.params)}${toQueryString(request.query)}`;
    const headers = new Headers({ Accept: request.accept });
    const token = await (options.getAccessToken ?? getAccessToken)();
    if (token) headers.set('Authorization', `Bearer ${token}`);
    if (request.contentType) headers.set('Content-Type', request.contentType);
    const init: RequestInit = { method: contract.method, headers, signal: request.signal };
    if (request.body !== undefined) init.body = request.body;

    let response: Response;
    try {
      response = await doFetch(url, init);
    } catch (cause) {
      if (request.signal?.aborted) throw cause;
      throw new ApiError(0, 'NETWORK_ERROR', fallbackDetail('NETWORK_ERROR'), undefined, { cause });
    }
    if (!response.ok) {
      let payload: unknown;
      try {
        payload = await readJson(response);
      } catch {
        payload = undefined;
      }
      throw errorFromBody(response.status, payload);
    }
    return response;
  }

  async function parse<C extends Contract>(contract: C, response: Response): Promise<CallResult<C>> {
    let payload: unknown;
    try {
      payload = await readJson(response);
    } catch (cause) {
      throw new ApiError(response.status, 'INVALID_RESPONSE', fallbackDetail('INVALID_RESPONSE'), undefined, {
        cause,
      });
    }
    const parsed = contract.response.safeParse(payload);
    if (!parsed.success) {
      throw new ApiError(response.status, 'INVALID_RESPONSE', fallbackDetail('INVALID_RESPONSE'), undefined, {
        cause: parsed.error,
      });
    }
    return parsed.data as CallResult<C>;
  }

  async function call<C extends Contract>(contract: C, callOptions?: CallOptions<C>): Promise<CallResult<C>> {
    const { params, query, body, signal } = (callOptions ?? {}) as {
      params?: Record<string, string | number>;
      query?: unknown;
      body?: unknown;
      signal?: AbortSignal;
    };
    const response = await send(contract, {
      params,
      query,
      signal,
      accept: 'application/json',
      ...(body !== undefined ? { body: JSON.stringify(body), contentType: 'application/json' } : {}),
    });
    return parse(contract, response);
  }

  async function callForm<C extends Contract>(
    contract: C,
    form: FormData,
    formOptions: FormCallOptions = {},
  ): Promise<CallResult<C>> {
    const response = await send(contract, { ...formOptions, body: form, accept: 'application/json' });
    return parse(contract, response);
  }

  async function readBlob(response: Response, signal?: AbortSignal): Promise<Blob> {
    try {
      return await response.blob();
    } catch (cause) {
      if (signal?.aborted) throw cause;
      throw new ApiError(0, 'NETWORK_ERROR', fallbackDetail('NETWORK_ERROR'), undefined, { cause });
    }
  }

  async function callFormForBlob<C extends Contract>(
    contract: C,
    form: FormData,
    formOptions: FormCallOptions = {},
  ): Promise<Blob> {
    const response = await send(contract, { ...formOptions, body: form, accept: '*/*' });
    return readBlob(response, formOptions.signal);
  }

  async function callForBlob<C extends Contract>(contract: C, callOptions?: CallOptions<C>): Promise<Blob> {
    const { params, query, signal } = (callOptions ?? {}) as {
      params?: Record<string, string | number>;
      query?: unknown;
      signal?: AbortSignal;
    };
    const response = await send(contract, { params, query, signal, accept: '*/*' });
    return readBlob(response, signal);
  }

  return { call, callForm, callFormForBlob, callForBlob };
}

let getAccessToken: AccessTokenGetter = () => null;

/** Plugs in where bearer tokens come from (the sign-in layer sets this once at boot). */
export function setAccessTokenGetter(getter: AccessTokenGetter): void {
  getAccessToken = getter;
}

/** The app's client: the configured API base (same origin when unset) and the pluggable token getter. */
export const api: ApiClient = createApiClient({ baseUrl: env.apiBase });

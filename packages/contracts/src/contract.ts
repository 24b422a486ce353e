import type { z } from 'zod';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * One endpoint's wire contract. The server registers its route from it, the web client calls through it,
 * and the OpenAPI document is generated from it, so a payload is typed exactly once.
 */
export interface Contract<
  P extends z.ZodType = z.ZodType,
  Q extends z.ZodType = z.ZodType,
  B extends z.ZodType = z.ZodType,
  R extends z.ZodType = z.ZodType,
> {
  method: HttpMethod;
  path: string;
  summary: string;
  tags: readonly string[];
  /** False for public endpoints; true (the default) when a signed-in user is required. */
  auth?: boolean;
  params?: P;
  query?: Q;
  body?: B;
  /**
   * Multipart routes (no JSON `body`): the file fields they accept and the schema of their text fields,
   * which the server checks after reading the form.
   */
  form?: { files: readonly string[]; fields?: z.ZodObject };
  /** The success response (status 200 unless `status` says otherwise). */
  response: R;
  status?: number;
  /** Other documented responses by status (e.g. readiness answers 503 with its own body). */
  responses?: Record<number, z.ZodType>;
}

export function defineContract<
  P extends z.ZodType = z.ZodNever,
  Q extends z.ZodType = z.ZodNever,
  B extends z.ZodType = z.ZodNever,
  R extends z.ZodType = z.ZodType,
>(contract: Contract<P, Q, B, R>): Contract<P, Q, B, R> {
  return contract;
}

/** Fills `{id}`-style placeholders in a contract path. */
export function buildPath(path: string, params: Record<string, string | number> = {}): string {
  return path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`Missing path parameter "${name}" for ${path}`);
    return encodeURIComponent(String(value));
  });
}

import type { FastifyInstance, FastifyReply, FastifyRequest, HTTPMethods } from 'fastify';
import type { z } from 'zod';
import type { AuthModule } from './auth.module.ts';
import { canonicalEmail } from './email-address.ts';
import { SessionError, tryRefreshToken } from './session.errors.ts';
import type { IssuedTokens, Session } from './session.service.ts';
import {
  fromTrustedOrigin,
  passesAntiCsrf,
  readAccessToken,
  writeSessionTokens,
  type TransferMode,
} from './session.transport.ts';
import { PUBLIC_TENANT, type Tenant } from './tenants.ts';

/** A 400 `{message}` in FDI format (bad input the client should not have sent). */
export class FdiBadRequest extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FdiBadRequest';
  }
}

export type TenantRequest = FastifyRequest<{ Params: { tenantId?: string } }>;

/**
 * Registers a tenant-scoped FDI route twice: bare (tenant `public`) and under `/{tenantId}`.
 * FDI routes are documented by SuperTokens' FDI (docs/reference/supertokens-fdi/CONTRACT.md), so they stay out of our OpenAPI document.
 */
export function tenantRoute(
  app: FastifyInstance,
  method: HTTPMethods,
  path: string,
  handler: (request: TenantRequest, reply: FastifyReply) => Promise<unknown>,
): void {
  for (const url of [path, `/:tenantId${path}`]) {
    app.route({ method, url, schema: { hide: true }, handler: handler as never });
  }
}

export function plainRoute(
  app: FastifyInstance,
  method: HTTPMethods,
  url: string,
  handler: (request: FastifyRequest, reply: FastifyReply) => Promise<unknown>,
): void {
  app.route({ method, url, schema: { hide: true }, handler });
}

/** The tenant a request names (the path segment, `public` without one); 400 when not configured. */
export function tenantOf(auth: AuthModule, request: TenantRequest): Tenant {
  const id = request.params.tenantId ?? PUBLIC_TENANT;
  const tenant = auth.tenants.get(id);
  if (!tenant) throw new FdiBadRequest(`Tenant ${id} not found`);
  return tenant;
}

/**
 * The `email` query parameter of an "is this address signed up?" check, canonicalised; undefined when
 * missing or not an address. A look-alike that is refused is a 400 saying why, never a lookup.
 */
export function emailParam(value: unknown): string | undefined {
  const address = canonicalEmail(value);
  if (address.ok) return address.email;
  if (address.reason !== 'invalid') throw new FdiBadRequest(address.message);
  return undefined;
}

/** Parses an FDI body with zod; a mismatch is a 400 `{message}`. Missing bodies count as `{}`. */
export function parseBody<T extends z.ZodType>(schema: T, body: unknown): z.output<T> {
  const parsed = schema.safeParse(body ?? {});
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new FdiBadRequest(`${issue?.path.join('.') || 'body'}: ${issue?.message ?? 'invalid'}`);
  }
  return parsed.data;
}

/**
 * The session of an FDI request, without the global claim validators (the FDI routes that take a
 * session are exactly the ones that must skip them). Missing when optional; 401 when required.
 */
export async function sessionOf(
  auth: AuthModule,
  request: FastifyRequest,
  options: { required: true },
): Promise<{ session: Session; mode: TransferMode }>;
export async function sessionOf(
  auth: AuthModule,
  request: FastifyRequest,
  options: { required: false },
): Promise<{ session: Session; mode: TransferMode } | undefined>;
export async function sessionOf(
  auth: AuthModule,
  request: FastifyRequest,
  options: { required: boolean },
): Promise<{ session: Session; mode: TransferMode } | undefined> {
  const found = readAccessToken(request);
  if (!found) {
    if (options.required) throw tryRefreshToken();
    return undefined;
  }
  assertTrustedOrigin(auth, request, found.mode);
  try {
    const session = await auth.sessions.verify(found.token);
    if (!passesAntiCsrf(request, found.mode, auth.cookies, session.payload.antiCsrfToken))
      throw tryRefreshToken();
    return { session, mode: found.mode };
  } catch (err) {
    if (!options.required && err instanceof SessionError) return undefined;
    throw err;
  }
}

/**
 * A 400 for a cookie-borne, state-changing request from another site's page (not a 401: that would
 * send the SDK into a refresh, and a refresh into clearing the person's real session).
 */
export function assertTrustedOrigin(auth: AuthModule, request: FastifyRequest, mode: TransferMode): void {
  if (!fromTrustedOrigin(request, mode, auth.cookies)) {
    throw new FdiBadRequest('This request came from a page on another site, so it was refused.');
  }
}

export function sendTokens(
  auth: AuthModule,
  reply: FastifyReply,
  mode: TransferMode,
  tokens: IssuedTokens,
): void {
  writeSessionTokens(reply, mode, tokens, auth.cookies, auth.clock.now());
}

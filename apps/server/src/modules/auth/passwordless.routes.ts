import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AuthModule } from './auth.module.ts';
import { clientAddress } from '../limits/client-address.ts';
import { emailParam, FdiBadRequest, parseBody, sessionOf, tenantOf, tenantRoute } from './fdi.http.ts';
import { canonicalEmail } from './email-address.ts';
import { normalisePhone, type FlowType } from './passwordless.service.ts';
import {
  assertMaySetUp,
  checkLimits,
  completeFactorInSession,
  completeSignIn,
  takeCodeGuess,
} from './sign-in.ts';

const CreateCodeBody = z.object({
  email: z.unknown().optional(),
  phoneNumber: z.unknown().optional(),
  shouldTryLinkingWithSessionUser: z.boolean().optional(),
});
const ResendBody = z.object({
  deviceId: z.string().min(1).max(200),
  preAuthSessionId: z.string().min(1).max(200),
  shouldTryLinkingWithSessionUser: z.boolean().optional(),
});
const ConsumeBody = z.union([
  z.object({
    userInputCode: z.string().max(100),
    deviceId: z.string().min(1).max(200),
    preAuthSessionId: z.string().min(1).max(200),
    shouldTryLinkingWithSessionUser: z.boolean().optional(),
  }),
  z.object({
    linkCode: z.string().min(1).max(200),
    preAuthSessionId: z.string().min(1).max(200),
    shouldTryLinkingWithSessionUser: z.boolean().optional(),
  }),
]);

const NOT_ALLOWED = {
  status: 'SIGN_IN_UP_NOT_ALLOWED',
  reason: 'Cannot sign in / up due to security reasons. Please contact support. (ERR_CODE_LUMINA_1)',
} as const;

/** Passwordless recipe (docs/reference/supertokens-fdi/CONTRACT.md §4): code, resend, consume, exists. */
export function passwordlessRoutes(app: FastifyInstance, auth: AuthModule): void {
  const settings = auth.config.auth;
  const limits = settings.rateLimit;

  /** The flow a tenant offers for a contact kind: code, link or both (docs/reference/supertokens-fdi/CONTRACT.md §14, pitfall 13). */
  function flowFor(tenantFactors: string[], kind: 'email' | 'phone'): FlowType | undefined {
    const otp = tenantFactors.includes(`otp-${kind}`);
    const link = tenantFactors.includes(`link-${kind}`);
    return otp && link
      ? 'USER_INPUT_CODE_AND_MAGIC_LINK'
      : otp
        ? 'USER_INPUT_CODE'
        : link
          ? 'MAGIC_LINK'
          : undefined;
  }

  tenantRoute(app, 'POST', '/signinup/code', async (request, reply) => {
    const tenant = tenantOf(auth, request);
    const body = parseBody(CreateCodeBody, request.body);
    if ((body.email === undefined) === (body.phoneNumber === undefined)) {
      throw new FdiBadRequest('Please provide exactly one of email or phoneNumber');
    }
    const kind = body.email !== undefined ? 'email' : 'phone';
    const method = settings.passwordless.contactMethod;
    if ((kind === 'email' && method === 'PHONE') || (kind === 'phone' && method === 'EMAIL')) {
      throw new FdiBadRequest(`Sign-in by ${kind === 'email' ? 'email' : 'phone number'} is not enabled`);
    }
    const address = kind === 'email' ? canonicalEmail(body.email) : undefined;
    if (address && !address.ok) return { status: 'GENERAL_ERROR', message: address.message };
    const email = address?.ok ? address.email : undefined;
    const phoneNumber = kind === 'phone' ? normalisePhone(body.phoneNumber) : undefined;
    if (!email && !phoneNumber) return { status: 'GENERAL_ERROR', message: 'Phone number is invalid' };
    const limited = await checkLimits(auth, reply, [
      { key: `pl:ip:${clientAddress(request)}`, max: limits.perIp },
      { key: `pl:contact:${email ?? phoneNumber}`, max: limits.perContact },
    ]);
    if (limited) return limited;

    let flowType: FlowType | undefined;
    if (body.shouldTryLinkingWithSessionUser === true) {
      // A second factor (otp-email / otp-phone) for the signed-in user: a session is required.
      const { session } = await sessionOf(auth, request, { required: true });
      const owner = await auth.users.passwordlessMethod({ email, phoneNumber });
      if (owner && owner.userId !== session.userId) return NOT_ALLOWED;
      // A new address is a factor being set up: allowed only when MFA permits it now (else 403 st-mfa).
      if (!owner) await assertMaySetUp(auth, session, kind === 'email' ? 'otp-email' : 'otp-phone');
      flowType = 'USER_INPUT_CODE';
    } else {
      flowType = flowFor(tenant.firstFactors, kind);
      if (!flowType)
        return { status: 'SIGN_IN_UP_NOT_ALLOWED', reason: 'This sign-in method is not enabled here.' };
    }
    return auth.passwordless.createCode(tenant.id, { email, phoneNumber }, flowType);
  });

  tenantRoute(app, 'POST', '/signinup/code/resend', async (request, reply) => {
    const tenant = tenantOf(auth, request);
    const body = parseBody(ResendBody, request.body);
    const contact = await auth.passwordless.deviceContact(body.preAuthSessionId);
    const limited = await checkLimits(auth, reply, [
      { key: `pl:ip:${clientAddress(request)}`, max: limits.perIp },
      ...(contact ? [{ key: `pl:contact:${contact}`, max: limits.perContact }] : []),
    ]);
    if (limited) return limited;
    const kind = contact?.includes('@') ? 'email' : 'phone';
    const flowType =
      body.shouldTryLinkingWithSessionUser === true
        ? 'USER_INPUT_CODE'
        : (flowFor(tenant.firstFactors, kind) ?? 'USER_INPUT_CODE');
    return auth.passwordless.resendCode(tenant.id, body, flowType);
  });

  tenantRoute(app, 'POST', '/signinup/code/consume', async (request, reply) => {
    const tenant = tenantOf(auth, request);
    const body = parseBody(ConsumeBody, request.body);
    const limited = await checkLimits(auth, reply, [
      { key: `pl:consume-ip:${clientAddress(request)}`, max: limits.perIp },
      { key: `pl:consume:${body.preAuthSessionId}`, max: limits.perContact },
    ]);
    if (limited) return limited;
    const linking = body.shouldTryLinkingWithSessionUser === true;
    const current = linking ? await sessionOf(auth, request, { required: true }) : undefined;

    // A typed code is a guess at the account's secret: per-account daily cap and backoff. (A link code
    // is 32 random bytes, not guessable, and a wrong one only restarts the flow.)
    const guessedFor =
      'userInputCode' in body ? await auth.passwordless.deviceContact(body.preAuthSessionId) : undefined;
    if (guessedFor) {
      const refused = await takeCodeGuess(auth, reply, guessedFor);
      if (refused) return refused;
    }
    const result = await auth.passwordless.consume(tenant.id, body);
    if (guessedFor && result.status === 'OK') await auth.codeGuesses.succeeded(guessedFor);
    if (result.status !== 'OK') return result;
    const contact = {
      email: result.contact.email ?? undefined,
      phoneNumber: result.contact.phoneNumber ?? undefined,
    };

    if (current) {
      // Second factor: mark it complete in the existing session and update its access token only.
      const owner = await auth.users.passwordlessMethod(contact);
      if (owner && owner.userId !== current.session.userId) return NOT_ALLOWED;
      const signIn = owner
        ? { user: (await auth.users.get(owner.userId))!, createdNewRecipeUser: false }
        : await auth.users.signInUpPasswordless(tenant.id, contact, { linkToUserId: current.session.userId });
      await completeFactorInSession(auth, reply, current, result.factorId.replace(/^link-/, 'otp-'));
      return { status: 'OK', createdNewRecipeUser: signIn.createdNewRecipeUser, user: signIn.user };
    }

    const signIn = await auth.users.signInUpPasswordless(tenant.id, contact);
    return completeSignIn(auth, request, reply, signIn, { tenantId: tenant.id, factorId: result.factorId });
  });

  /**
   * "Is this address signed up?" tells a prober who has an account: limited per IP and per address
   * probed (many IPs asking about one account), with counters of their own so sign-in is unaffected.
   */
  function existsLimits(ip: string, contact: string) {
    return [
      { key: `exists:ip:${ip}`, max: limits.perIp },
      { key: `exists:contact:${contact}`, max: limits.perContact },
    ];
  }

  /** "Does this address have an account in the tenant?", for an email or a phone number (rate-limited). */
  function existsRoute(
    path: string,
    field: 'email' | 'phoneNumber',
    normalise: (value: unknown) => string | undefined,
  ) {
    tenantRoute(app, 'GET', path, async (request, reply) => {
      const tenant = tenantOf(auth, request);
      const contact = normalise((request.query as Record<string, unknown>)[field]);
      if (!contact) throw new FdiBadRequest(`Please provide the ${field} as a GET param`);
      const limited = await checkLimits(auth, reply, existsLimits(clientAddress(request), contact));
      if (limited) return limited;
      const method = await auth.users.passwordlessMethod({ [field]: contact });
      return { status: 'OK', exists: !!method && method.tenantIds.includes(tenant.id) };
    });
  }
  existsRoute('/passwordless/email/exists', 'email', emailParam);
  existsRoute('/passwordless/phonenumber/exists', 'phoneNumber', normalisePhone);
}

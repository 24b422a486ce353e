import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { AuthModule } from './auth.module.ts';
import { AUTH_BASE_PATH } from './auth.module.ts';
import { MFA_CLAIM } from './claims.ts';
import { clientAddress } from '../limits/client-address.ts';
import { canonicalEmail } from './email-address.ts';
import { emailParam, FdiBadRequest, parseBody, sessionOf, tenantOf, tenantRoute } from './fdi.http.ts';
import { invalidClaim } from './session.errors.ts';
import type { Session } from './session.service.ts';
import { assertMaySetUp, checkLimits, completeFactorInSession, completeSignIn, mfaState } from './sign-in.ts';

const OptionsId = z.string().min(1).max(100);
/** The browser's PublicKeyCredential as JSON; its insides are checked by @simplewebauthn/server. */
const Credential = z.record(z.string(), z.unknown());

const RegisterOptionsBody = z.object({
  email: z.unknown().optional(),
  recoverAccountToken: z.string().min(1).max(200).optional(),
});
const SignUpBody = z.object({
  webauthnGeneratedOptionsId: OptionsId,
  credential: Credential,
  shouldTryLinkingWithSessionUser: z.boolean().optional(),
});
const SignInBody = SignUpBody;
const RecoverTokenBody = z.object({ email: z.unknown() });
const RecoverBody = z.object({
  token: z.string().min(1).max(200),
  webauthnGeneratedOptionsId: OptionsId,
  credential: Credential,
});
const RegisterCredentialBody = z.object({
  webauthnGeneratedOptionsId: OptionsId,
  recipeUserId: z.string().min(1).max(100),
  credential: Credential,
  /** Ours, not the FDI's: the name the account page gives the passkey. */
  name: z.string().max(100).optional(),
});
const RemoveCredentialBody = z.object({ webauthnCredentialId: z.string().min(1).max(1024) });

const INVALID_CREDENTIALS = { status: 'INVALID_CREDENTIALS_ERROR' } as const;

/**
 * The WebAuthn recipe of the FDI (4.1, plus 4.2's credential list and remove): passkey sign-up and
 * sign-in as a first factor, passkeys as a second factor, a signed-in person's passkeys, and account
 * recovery by email. Paths as web-js 0.16 calls them (`webauthn/options/register`, not the YAML's).
 */
export function webauthnRoutes(app: FastifyInstance, auth: AuthModule): void {
  const limits = auth.config.auth.rateLimit;
  const perIp = (request: FastifyRequest, what: string) => ({
    key: `wa:${what}:${clientAddress(request)}`,
    max: limits.perIp,
  });

  /** 403 st-mfa unless the session finished sign-in (adding or removing passkeys needs that). */
  async function assertSignedInFully(session: Session) {
    const state = await mfaState(auth, session);
    if (!state?.claim.v) {
      throw invalidClaim([{ id: MFA_CLAIM, reason: 'not all required factors have been completed' }]);
    }
    return state;
  }

  tenantRoute(app, 'POST', '/webauthn/options/register', async (request, reply) => {
    const tenant = tenantOf(auth, request);
    const body = parseBody(RegisterOptionsBody, request.body);
    const limited = await checkLimits(auth, reply, [perIp(request, 'options')]);
    if (limited) return limited;
    if (body.recoverAccountToken !== undefined) {
      const refused = await recoveryRefused(auth, tenant.id, body.recoverAccountToken);
      if (refused) return refused;
      const result = await auth.webauthn.registerOptions(tenant.id, {
        recoverToken: body.recoverAccountToken,
      });
      return result.status === 'OK' ? { status: 'OK', ...result.options } : result;
    }
    if (body.email === undefined)
      throw new FdiBadRequest('Please provide the email or the recoverAccountToken');
    const address = canonicalEmail(body.email);
    const email = address.ok ? address.email : undefined;
    // A signed-in person adding a passkey: it joins them whatever address the page sent.
    const current = await sessionOf(auth, request, { required: false });
    if (!address.ok && !current) {
      // The passkey card shows a GENERAL_ERROR's message; INVALID_EMAIL_ERROR only as "something went wrong".
      return address.reason === 'invalid'
        ? { status: 'INVALID_EMAIL_ERROR', err: address.message }
        : { status: 'GENERAL_ERROR', message: address.message };
    }
    const result = await auth.webauthn.registerOptions(tenant.id, {
      email,
      ...(current ? { forSession: { userId: current.session.userId, handle: current.session.handle } } : {}),
    });
    return result.status === 'OK' ? { status: 'OK', ...result.options } : result;
  });

  tenantRoute(app, 'POST', '/webauthn/options/signin', async (request, reply) => {
    const tenant = tenantOf(auth, request);
    const limited = await checkLimits(auth, reply, [perIp(request, 'options')]);
    if (limited) return limited;
    return auth.webauthn.signInOptions(tenant.id);
  });

  tenantRoute(app, 'POST', '/webauthn/signup', async (request, reply) => {
    const tenant = tenantOf(auth, request);
    const body = parseBody(SignUpBody, request.body);
    const limited = await checkLimits(auth, reply, [perIp(request, 'attempt')]);
    if (limited) return limited;

    if (body.shouldTryLinkingWithSessionUser === true) {
      // Setting a passkey up as a second factor in the MFA step: it joins the signed-in person.
      const current = await sessionOf(auth, request, { required: true });
      const userId = current.session.userId;
      const hadPasskey = await auth.webauthn.hasPasskey(userId);
      if (hadPasskey) await assertSignedInFully(current.session);
      else await assertMaySetUp(auth, current.session, 'webauthn');
      const result = await auth.webauthn.addForUser(
        current.session,
        tenant.id,
        body.webauthnGeneratedOptionsId,
        body.credential,
        undefined,
      );
      if (result.status !== 'OK') return result;
      // As an authenticator app's first code does, a passkey set up in the MFA step turns the factor on.
      if (!(await auth.mfa.required(userId)).includes('webauthn')) {
        await auth.mfa.setRequired(userId, 'webauthn', true);
      }
      await completeFactorInSession(auth, reply, current, 'webauthn');
      return { status: 'OK', user: await auth.users.get(userId) };
    }

    if (!auth.tenants.allows(tenant.id, 'webauthn')) {
      return { status: 'SIGN_UP_NOT_ALLOWED', reason: 'Passkeys are not enabled here.' };
    }
    const result = await auth.webauthn.signUp(tenant.id, body.webauthnGeneratedOptionsId, body.credential);
    if (result.status !== 'OK') return result;
    const user = (await auth.users.get(result.userId))!;
    return completeSignIn(
      auth,
      request,
      reply,
      { user, loginMethod: result.loginMethod, createdNewRecipeUser: true, isNewUser: true },
      { tenantId: tenant.id, factorId: 'webauthn' },
    );
  });

  tenantRoute(app, 'POST', '/webauthn/signin', async (request, reply) => {
    const tenant = tenantOf(auth, request);
    const body = parseBody(SignInBody, request.body);
    const linking = body.shouldTryLinkingWithSessionUser === true;
    const current = linking ? await sessionOf(auth, request, { required: true }) : undefined;
    if (!current && !auth.tenants.allows(tenant.id, 'webauthn')) {
      return { status: 'SIGN_IN_NOT_ALLOWED', reason: 'Passkeys are not enabled here.' };
    }
    const limited = await checkLimits(auth, reply, [perIp(request, 'attempt')]);
    if (limited) return limited;
    const result = await auth.webauthn.signIn(tenant.id, body.webauthnGeneratedOptionsId, body.credential);
    if (result.status !== 'OK') return result;

    if (current) {
      // The second factor: only the signed-in person's own passkey completes it.
      if (result.credential.userId !== current.session.userId) return INVALID_CREDENTIALS;
      await completeFactorInSession(auth, reply, current, 'webauthn');
      return { status: 'OK', user: await auth.users.get(current.session.userId) };
    }
    const user = await auth.users.get(result.credential.userId);
    if (!user) return INVALID_CREDENTIALS;
    return completeSignIn(
      auth,
      request,
      reply,
      { user, loginMethod: result.loginMethod, createdNewRecipeUser: false, isNewUser: false },
      { tenantId: tenant.id, factorId: 'webauthn' },
    );
  });

  tenantRoute(app, 'GET', '/webauthn/email/exists', async (request, reply) => {
    const tenant = tenantOf(auth, request);
    const email = emailParam((request.query as Record<string, unknown>).email);
    if (!email) throw new FdiBadRequest('Please provide the email as a GET param');
    const limited = await checkLimits(auth, reply, [
      { key: `exists:ip:${clientAddress(request)}`, max: limits.perIp },
      { key: `exists:contact:${email}`, max: limits.perContact },
    ]);
    if (limited) return limited;
    return { status: 'OK', exists: await auth.webauthn.emailExists(tenant.id, email) };
  });

  tenantRoute(app, 'POST', '/user/webauthn/reset/token', async (request, reply) => {
    const tenant = tenantOf(auth, request);
    const body = parseBody(RecoverTokenBody, request.body);
    const address = canonicalEmail(body.email);
    if (!address.ok) return { status: 'GENERAL_ERROR', message: address.message };
    const email = address.email;
    const limited = await checkLimits(auth, reply, [
      { key: `wa:recover-ip:${clientAddress(request)}`, max: limits.perIp },
      { key: `wa:recover:${email}`, max: limits.perContact },
    ]);
    if (limited) return limited;
    // The same answer whether or not a passkey account has this address (no enumeration here).
    const issued = await auth.webauthn.issueRecoverToken(tenant.id, email);
    if (issued && (await auth.mfa.required(issued.userId)).length > 0) {
      await sendRecoveryRefusedEmail(auth, issued.email);
    } else if (issued) await sendRecoveryEmail(auth, reply, tenant.id, issued);
    return { status: 'OK' };
  });

  tenantRoute(app, 'POST', '/user/webauthn/reset', async (request, reply) => {
    const tenant = tenantOf(auth, request);
    const body = parseBody(RecoverBody, request.body);
    const limited = await checkLimits(auth, reply, [perIp(request, 'attempt')]);
    if (limited) return limited;
    const refused = await recoveryRefused(auth, tenant.id, body.token);
    if (refused) return refused;
    const result = await auth.webauthn.recover(
      tenant.id,
      body.token,
      body.webauthnGeneratedOptionsId,
      body.credential,
    );
    if (result.status !== 'OK') return result;
    await auth.users.setVerified(result.loginMethod.id);
    // Whoever signed up with the address before it was proven is signed out with their passkeys gone.
    if (result.wasUnproven) await auth.sessions.revokeAllForUser(result.loginMethod.userId, 'recovered');
    return { status: 'OK', user: await auth.users.get(result.loginMethod.userId), email: result.email };
  });

  tenantRoute(app, 'POST', '/webauthn/credential', async (request) => {
    const tenant = tenantOf(auth, request);
    const body = parseBody(RegisterCredentialBody, request.body);
    const { session } = await sessionOf(auth, request, { required: true });
    const state = await assertSignedInFully(session);
    if (!state.user.loginMethods.some((m) => m.recipeUserId === body.recipeUserId)) {
      return { status: 'REGISTER_CREDENTIAL_NOT_ALLOWED', reason: 'This sign-in method is not yours.' };
    }
    const result = await auth.webauthn.addForUser(
      session,
      tenant.id,
      body.webauthnGeneratedOptionsId,
      body.credential,
      body.name,
    );
    if (result.status !== 'OK') return result;
    return { status: 'OK', webauthnCredentialId: result.credentialId, recipeUserId: result.loginMethod.id };
  });

  tenantRoute(app, 'GET', '/webauthn/credential/list', async (request) => {
    tenantOf(auth, request);
    const { session } = await sessionOf(auth, request, { required: true });
    return { status: 'OK', credentials: await auth.webauthn.list(session.userId) };
  });

  tenantRoute(app, 'POST', '/webauthn/credential/remove', async (request) => {
    tenantOf(auth, request);
    const body = parseBody(RemoveCredentialBody, request.body);
    const { session } = await sessionOf(auth, request, { required: true });
    await assertSignedInFully(session);
    const { removed, remaining } = await auth.webauthn.remove(session.userId, body.webauthnCredentialId);
    if (!removed) return { status: 'CREDENTIAL_NOT_FOUND_ERROR' };
    // No passkey left: the factor can no longer be asked for.
    if (remaining === 0) await auth.mfa.setRequired(session.userId, 'webauthn', false);
    return { status: 'OK' };
  });
}

async function sendRecoveryEmail(
  auth: AuthModule,
  _reply: FastifyReply,
  tenantId: string,
  issued: { token: string; email: string },
) {
  const link = `${auth.config.auth.webUrl}${AUTH_BASE_PATH}/webauthn/recover?token=${issued.token}&tenantId=${encodeURIComponent(tenantId)}`;
  await auth.mailer.send({
    to: issued.email,
    subject: 'Recover your Lumina passkey account',
    text: `Open this link to register a new passkey for your Lumina account:\n${link}\n\nIt expires in 1 hour. If you did not ask for this, ignore this email.`,
    html: `<p>Open this link to register a new passkey for your Lumina account:</p><p><a href="${link}">Register a new passkey</a></p><p>It expires in 1 hour. If you did not ask for this, ignore this email.</p>`,
    link,
  });
}

/**
 * Recovery by email proves the inbox only. An account with a second factor on would get past it: a
 * passkey added here is one the attacker holds, and it then satisfies the passkey factor. Such an account
 * is never recovered by email (see docs/decisions.md, "Passkey recovery and second factors").
 */
export const RECOVERY_REFUSED_MESSAGE =
  "This account has two-step sign-in turned on, so its passkeys can't be recovered by email. Sign in another way and manage your passkeys from the account page, or contact support.";

async function recoveryRefused(auth: AuthModule, tenantId: string, token: string) {
  const userId = await auth.webauthn.recoverTokenUser(tenantId, token);
  if (userId && (await auth.mfa.required(userId)).length > 0) {
    return { status: 'GENERAL_ERROR' as const, message: RECOVERY_REFUSED_MESSAGE };
  }
  return undefined;
}

async function sendRecoveryRefusedEmail(auth: AuthModule, email: string) {
  const text = `Someone asked to recover the passkeys of your Lumina account. Your account has two-step sign-in turned on, so its passkeys can't be recovered by email. Sign in another way and manage your passkeys from the account page, or contact support.\n\nIf you did not ask for this, ignore this email.`;
  await auth.mailer.send({
    to: email,
    subject: 'Your Lumina passkeys cannot be recovered by email',
    text,
    html: `<p>${text.replace('\n\n', '</p><p>')}</p>`,
  });
}

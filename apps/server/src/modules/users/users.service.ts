import { randomUUID } from 'node:crypto';
import type { Database, DbOrTx, Tx } from '../../db/client.ts';
import type { AuthLoginMethodRow, UserRow } from '../../db/schema/index.ts';
import { notFound } from '../../errors.ts';
import type { Clock } from '../../clock.ts';
import { toFdiUser, toProfileView, type FdiUser, type ProfileView } from './users.mapper.ts';
import * as repo from './users.repository.ts';
import { isUniqueViolation } from '../../db/unique-violation.ts';

export interface SignInResult {
  user: FdiUser;
  loginMethod: AuthLoginMethodRow;
  createdNewRecipeUser: boolean;
  /** A row was added to `users` (the first sign-in of this person). */
  isNewUser: boolean;
}

/**
 * Our users and the ways they sign in. A new person gets a `users` row at first sign-in; a verified
 * email that already belongs to a user links the new login method to that user.
 */
export class UserDirectory {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    /** Operators by email (ADMIN_EMAILS, lower-cased). */
    private readonly adminEmails: readonly string[] = [],
  ) {}

  async get(userId: string): Promise<FdiUser | undefined> {
    const user = await repo.findUser(this.db, userId);
    return user
      ? toFdiUser(
          user,
          await repo.loginMethodsOf(this.db, userId),
          await repo.webauthnCredentialIdsOf(this.db, userId),
        )
      : undefined;
  }

  /** The product's view of a user: `{ id, email, is_operator }`. */
  async profile(userId: string): Promise<ProfileView> {
    const user = await repo.findUser(this.db, userId);
    if (!user) throw notFound('The user');
    const email =
      user.email ?? (await repo.loginMethodsOf(this.db, userId)).find((m) => m.email)?.email ?? null;
    return toProfileView(user, email, await this.isOperator(userId), await repo.isOnboarded(this.db, userId));
  }

  /**
   * Whether the person is an operator: an address in ADMIN_EMAILS that this account has proven (an email
   * code or link, a provider's verified email, a verification link). The address a passkey sign-up
   * typed proves nothing until then. Every operator check asks here.
   */
  async isOperator(userId: string): Promise<boolean> {
    if (this.adminEmails.length === 0) return false;
    const proven = await repo.provenEmailsOf(this.db, userId);
    return proven.some((email) => this.adminEmails.includes(email.toLowerCase()));
  }

  async passwordlessMethod(contact: { email?: string; phoneNumber?: string }) {
    return repo.findPasswordlessMethod(this.db, contact);
  }

  /**
   * Signs a passwordless contact in or up in a tenant. A code sent to the address proves it, so the
   * login method is verified. With `linkToUserId` (an MFA factor set up from a session) a new contact
   * joins that user instead.
   */
  async signInUpPasswordless(
    tenantId: string,
    contact: { email?: string; phoneNumber?: string },
    options: { linkToUserId?: string } = {},
  ): Promise<SignInResult> {
    return this.signUpTransaction(async (tx) => {
      const existing = await repo.findPasswordlessMethod(tx, contact);
      if (existing) {
        await repo.addTenantToLoginMethod(tx, existing.id, tenantId);
        if (!existing.verified) await repo.setLoginMethodVerified(tx, existing.id);
        if (contact.email) await proveEmail(tx, existing.userId, contact.email);
        return this.result(tx, existing.userId, existing.id, false, false);
      }
      let user: UserRow | undefined;
      if (options.linkToUserId) user = await repo.findUser(tx, options.linkToUserId);
      else if (contact.email) user = await repo.findUserByEmail(tx, contact.email);
      const isNewUser = !user;
      const id = randomUUID();
      user ??= await repo.insertUser(tx, { id, email: contact.email ?? null });
      const method = await repo.insertLoginMethod(tx, {
        id: isNewUser ? user.id : id,
        userId: user.id,
        recipeId: 'passwordless',
        email: contact.email ?? null,
        phoneNumber: contact.phoneNumber ?? null,
        verified: true,
        tenantIds: [tenantId],
        createdAt: new Date(this.clock.now()),
      });
      if (contact.email) await proveEmail(tx, user.id, contact.email);
      return this.result(tx, user.id, method.id, true, isNewUser);
    });
  }

  /**
   * Signs a third-party account in or up. A verified email that already belongs to a user links the
   * account to that user; an unverified one never links and may not take over an existing address.
   */
  async signInUpThirdParty(
    tenantId: string,
    account: { thirdPartyId: string; thirdPartyUserId: string; email: string; verified: boolean },
  ): Promise<SignInResult | { status: 'EMAIL_IN_USE' }> {
    return this.signUpTransaction(async (tx) => {
      const existing = await repo.findThirdPartyMethod(tx, account.thirdPartyId, account.thirdPartyUserId);
      if (existing) {
        await repo.addTenantToLoginMethod(tx, existing.id, tenantId);
        if (existing.email !== account.email || existing.verified !== account.verified) {
          await repo.updateLoginMethodEmail(
            tx,
            existing.id,
            account.email,
            existing.verified || account.verified,
          );
        }
        if (account.verified) await proveEmail(tx, existing.userId, account.email);
        return this.result(tx, existing.userId, existing.id, false, false);
      }
      const owner = await repo.findUserByEmail(tx, account.email);
      if (owner && !account.verified) return { status: 'EMAIL_IN_USE' as const };
      const isNewUser = !owner;
      const id = randomUUID();
      // An unverified address is not claimed on the user row, so it can never link other accounts.
      const user =
        owner ?? (await repo.insertUser(tx, { id, email: account.verified ? account.email : null }));
      const method = await repo.insertLoginMethod(tx, {
        id: isNewUser ? user.id : id,
        userId: user.id,
        recipeId: 'thirdparty',
        email: account.email,
        thirdPartyId: account.thirdPartyId,
        thirdPartyUserId: account.thirdPartyUserId,
        verified: account.verified,
        tenantIds: [tenantId],
        createdAt: new Date(this.clock.now()),
      });
      if (account.verified) await proveEmail(tx, user.id, account.email);
      return this.result(tx, user.id, method.id, true, isNewUser);
    });
  }

  /** Marks a login method's email verified (and gives the user that email when it has none). */
  async setVerified(loginMethodId: string): Promise<void> {
    await this.db.transaction(async (tx) => {
      const method = await repo.findLoginMethod(tx, loginMethodId);
      if (!method) return;
      await repo.setLoginMethodVerified(tx, loginMethodId);
      if (method.email) await proveEmail(tx, method.userId, method.email);
    });
  }

  async loginMethod(id: string) {
    return repo.findLoginMethod(this.db, id);
  }

  /**
   * Runs a sign-in-or-up in a transaction, and again (three tries in all) when it lost a race: two first
   * sign-ins of the same account at once, where the loser's retry finds the winner's row.
   */
  private async signUpTransaction<T>(work: (tx: Tx) => Promise<T>): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.db.transaction(work);
      } catch (err) {
        if (attempt < 2 && isUniqueViolation(err)) continue;
        throw err;
      }
    }
  }

  private async result(
    tx: Parameters<Parameters<Database['transaction']>[0]>[0],
    userId: string,
    loginMethodId: string,
    createdNewRecipeUser: boolean,
    isNewUser: boolean,
  ): Promise<SignInResult> {
    const user = (await repo.findUser(tx, userId))!;
    const methods = await repo.loginMethodsOf(tx, userId);
    return {
      user: toFdiUser(user, methods, await repo.webauthnCredentialIdsOf(tx, userId)),
      loginMethod: methods.find((m) => m.id === loginMethodId)!,
      createdNewRecipeUser,
      isNewUser,
    };
  }
}

/**
 * What proving an address (a code, a link, a provider's verified email) does, in the sign-in's
 * transaction: the user gets it as their email when they have none and no other user holds it, and
 * other people's passkey sign-ups that only typed it lose it. An unproven address never blocks or
 * shadows the person who proves it (docs/decisions.md, "Unproven addresses").
 */
async function proveEmail(tx: DbOrTx, userId: string, email: string): Promise<void> {
  await repo.releaseUnprovenAddress(tx, email, userId);
  const holder = await repo.findUserByEmail(tx, email);
  if (!holder) await repo.setUserEmailIfUnset(tx, userId, email);
}

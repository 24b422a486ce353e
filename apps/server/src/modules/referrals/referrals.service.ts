import type { Config } from '../../config.ts';
import type { Database } from '../../db/client.ts';
import type { ReferralCodeRow, ReferralRow } from '../../db/schema/index.ts';
import { AppError } from '../../errors.ts';
import { addressHash, displayName, generateCode, maskEmail } from './referral-names.ts';
import {
  addVisit,
  countLiveCodes,
  countsPerCode,
  findCode,
  findDefaultCode,
  findOwnCode,
  findReferralOf,
  findUser,
  insertCode,
  insertReferralOnce,
  listCodes,
  listReferrals,
  lockUser,
  updateCode,
} from './referrals.repository.ts';
import { countRewardedSince, hasPaidPayment } from './referral-rewards.repository.ts';
import { ALREADY_REFERRED } from '@lumina/contracts';

/** Codes a person may hold at once (deleted ones do not count), their default included. */
export const MAX_CODES = 20;
const DAY_MS = 24 * 60 * 60 * 1000;

const codeNotFound = () => new AppError('NOT_FOUND', 'This code was not found.');
const refused = (detail: string) => new AppError('VALIDATION_FAILED', detail);

export interface CodeStats {
  row: ReferralCodeRow;
  signups: number;
  completed: number;
  creditsEarned: number;
  /** Reward credits still settling (not spendable yet). */
  creditsPending: number;
}

export interface ReferralStatsResult {
  codes: CodeStats[];
  rewardedThisMonth: number;
}

export interface ReferredPerson {
  referral: ReferralRow;
  maskedEmail: string;
  code: string;
}

/** Why a code binds nobody new, in words for people; undefined when it binds. */
function unusable(code: ReferralCodeRow, now: Date): string | undefined {
  if (code.deletedAt || !code.active) return 'This invitation is no longer active.';
  if (code.expiresAt && code.expiresAt <= now) return 'This invitation has expired.';
  return undefined;
}

/**
 * The referral programme's codes and bindings (issue 14): every person has a default code (made on
 * first need), may make more, turn them off or delete them (softly: history stays), and a new person
 * is bound to a code's owner once. Completion and rewards are referral-rewards (R2's); this side only
 * reads their columns.
 */
export class ReferralsService {
  constructor(
    private readonly deps: {
      db: Database;
      settings: Config['referrals'];
      /** The web app's address: links to share are `<webUrl>/?ref=<code>`. */
      webUrl: string;
      /** Keys the hash of client addresses (FILE_URL_SECRET or the generated development secret). */
      addressSecret: string;
    },
  ) {}

  get settings(): Config['referrals'] {
    return this.deps.settings;
  }

  link(code: string): string {
    return `${this.deps.webUrl.replace(/\/$/, '')}/?ref=${encodeURIComponent(code)}`;
  }

  hashAddress(address: string): string {
    return addressHash(this.deps.addressSecret, address);
  }

  /**
   * The person's default code, made now if they have none (a clash with a taken code is retried).
   * `address` is theirs, at this request: kept with a code it makes, as an address of the referrer.
   */
  async defaultCode(userId: string, address: string): Promise<ReferralCodeRow> {
    const ownerIpHash = this.hashAddress(address);
    for (let attempt = 0; attempt < 5; attempt++) {
      const existing = await findDefaultCode(this.deps.db, userId);
      if (existing) return existing;
      // Nothing inserted: either the text was taken (retry with another) or a concurrent call made
      // the default (found on the next pass).
      await insertCode(this.deps.db, {
        userId,
        code: generateCode(),
        isDefault: true,
        expiresAt: null,
        ownerIpHash,
      });
    }
    const made = await findDefaultCode(this.deps.db, userId);
    if (!made) throw new Error('could not make a default referral code');
    return made;
  }

  async create(
    userId: string,
    input: { code?: string; expiresAt?: Date | null },
    address: string,
  ): Promise<ReferralCodeRow> {
    const expiresAt = input.expiresAt ?? null;
    const ownerIpHash = this.hashAddress(address);
    if (expiresAt && expiresAt.getTime() <= Date.now()) {
      throw refused('expires_at must be in the future.');
    }
    await this.defaultCode(userId, address);
    return this.deps.db.transaction(async (tx) => {
      // Two creates at once must not both pass the count.
      await lockUser(tx, userId);
      if ((await countLiveCodes(tx, userId)) >= MAX_CODES) {
        throw refused(`You can have at most ${MAX_CODES} codes. Delete one to make another.`);
      }
      if (input.code) {
        const row = await insertCode(tx, {
          userId,
          code: input.code,
          isDefault: false,
          expiresAt,
          ownerIpHash,
        });
        if (!row) throw new AppError('CONFLICT', 'That code is taken.');
        return row;
      }
      for (let attempt = 0; attempt < 5; attempt++) {
        const row = await insertCode(tx, {
          userId,
          code: generateCode(),
          isDefault: false,
          expiresAt,
          ownerIpHash,
        });
        if (row) return row;
      }
      throw new Error('could not generate a free referral code');
    });
  }

  async toggle(userId: string, code: string): Promise<ReferralCodeRow> {
    const row = await findOwnCode(this.deps.db, userId, code);
    if (!row) throw codeNotFound();
    return updateCode(this.deps.db, row.id, { active: !row.active });
  }

  async remove(userId: string, code: string): Promise<void> {
    const row = await findOwnCode(this.deps.db, userId, code);
    if (!row) throw codeNotFound();
    if (row.isDefault) {
      throw refused('Your default code cannot be deleted. Turn it off instead.');
    }
    await updateCode(this.deps.db, row.id, { deletedAt: new Date(), active: false });
  }

  /**
   * Binds the person to the code's owner, once. Every refusal changes nothing; already bound is
   * exactly ALREADY_REFERRED (the web client clears its stored code on it).
   */
  async track(userId: string, code: string, address: string): Promise<{ referrerName: string }> {
    const { db, settings } = this.deps;
    const user = await findUser(db, userId);
    if (!user) throw codeNotFound();
    // Already bound first: whatever code comes next, the answer is the one the web client clears on.
    if (await findReferralOf(db, user.id)) throw new AppError('CONFLICT', ALREADY_REFERRED);
    const found = await findCode(db, code);
    if (!found) throw codeNotFound();
    if (found.owner.id === user.id) throw refused('You cannot use your own invitation.');
    // Two people inviting each other would each earn a reward and a welcome from one pair of payments.
    if ((await findReferralOf(db, found.owner.id))?.referrerId === user.id) {
      throw refused('You cannot accept an invitation from someone you invited.');
    }
    const why = unusable(found.code, new Date());
    if (why) throw refused(why);
    if (Date.now() - user.createdAt.getTime() > settings.bindWindowDays * DAY_MS) {
      const days = settings.bindWindowDays === 1 ? '1 day' : `${settings.bindWindowDays} days`;
      throw refused(`Invitations can only be accepted within ${days} of signing up.`);
    }
    // A referrer brought the person in, so joined before them. This also rules out rings of any length
    // (A invites B invites C invites A), each of which would earn a reward and a welcome per member,
    // and pairs binding each other at the same moment: sign-up times never change.
    if (found.owner.createdAt.getTime() >= user.createdAt.getTime()) {
      throw refused('This invitation is from someone who joined after you, so it cannot be accepted.');
    }
    // Rewards come with a first payment: a person who has paid already could never complete one.
    if (await hasPaidPayment(db, user.id)) {
      throw refused('Invitations can only be accepted before your first purchase.');
    }
    const bound = await insertReferralOnce(db, {
      referrerId: found.owner.id,
      referredId: user.id,
      codeId: found.code.id,
      signupIpHash: this.hashAddress(address),
    });
    // Lost a race with another track of the same person: they are bound once, by the other.
    if (!bound) throw new AppError('CONFLICT', ALREADY_REFERRED);
    return { referrerName: displayName(found.owner.email) };
  }

  /** Whether a code binds, and why not; never says whether an unusable code exists beyond "not found". */
  async validate(
    code: string,
  ): Promise<{ valid: true; codeId: string; referrerName: string } | { valid: false; reason: string }> {
    const found = await findCode(this.deps.db, code);
    if (!found) return { valid: false, reason: 'This invitation was not found.' };
    const why = unusable(found.code, new Date());
    if (why) return { valid: false, reason: why };
    return { valid: true, codeId: found.code.id, referrerName: displayName(found.owner.email) };
  }

  countVisit(codeId: string): Promise<void> {
    return addVisit(this.deps.db, codeId);
  }

  /** Per code (the default first; deleted codes only when they have history) and this month's rewards. */
  async stats(userId: string, address: string): Promise<ReferralStatsResult> {
    const { db } = this.deps;
    await this.defaultCode(userId, address);
    const rows = await listCodes(db, userId);
    const counts = new Map(
      (
        await countsPerCode(
          db,
          rows.map((r) => r.id),
        )
      ).map((c) => [c.codeId, c]),
    );
    const codes = rows
      .map((row) => {
        const c = counts.get(row.id);
        return {
          row,
          signups: Number(c?.signups ?? 0),
          completed: Number(c?.completed ?? 0),
          creditsEarned: Number(c?.earned ?? 0),
          creditsPending: Number(c?.pending ?? 0),
        };
      })
      .filter((c) => !c.row.deletedAt || c.row.visits > 0 || c.signups > 0);
    const now = new Date();
    const monthStart = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
    return { codes, rewardedThisMonth: await countRewardedSince(db, userId, monthStart) };
  }

  async referred(userId: string): Promise<ReferredPerson[]> {
    const rows = await listReferrals(this.deps.db, userId);
    return rows.map((r) => ({ referral: r.referral, code: r.code, maskedEmail: maskEmail(r.email) }));
  }

  /** The caller's own binding through that code, if any (another person's is never looked at). */
  async completion(userId: string, code: string): Promise<ReferralRow | undefined> {
    const referral = await findReferralOf(this.deps.db, userId);
    if (!referral) return undefined;
    const found = await findCode(this.deps.db, code);
    return found && found.code.id === referral.codeId ? referral : undefined;
  }
}

import { and, eq, inArray, isNotNull, notInArray, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { purchases, trainedModels, userProfiles, type UserProfileRow } from '../../db/schema/index.ts';

/** Queries on a person's onboarding answers (`user_profiles`) and on which of their photo sets are in use. */

export interface ProfileAnswers {
  useCase: string;
  country: string;
  phone: string | null;
  referralSource: string;
  gender: string | null;
}

export async function findProfile(db: DbOrTx, userId: string): Promise<UserProfileRow | undefined> {
  const [row] = await db.select().from(userProfiles).where(eq(userProfiles.userId, userId));
  return row;
}

/**
 * Saves the answers, first time or edited: `completed_at` is set by the first save and kept by later
 * ones, so "when they onboarded" does not move when they fix a typo on the account page.
 */
export async function saveAnswers(
  db: DbOrTx,
  userId: string,
  answers: ProfileAnswers,
): Promise<UserProfileRow> {
  const [row] = await db
    .insert(userProfiles)
    .values({ userId, ...answers, completedAt: sql`now()` })
    .onConflictDoUpdate({
      target: userProfiles.userId,
      set: {
        ...answers,
        completedAt: sql`coalesce(${userProfiles.completedAt}, now())`,
        updatedAt: sql`now()`,
      },
    })
    .returning();
  return row!;
}

/**
 * Marks onboarding skipped, unless it was completed (then nothing changes). Skipping twice keeps the
 * first time.
 */
export async function markSkipped(db: DbOrTx, userId: string): Promise<UserProfileRow> {
  await db
    .insert(userProfiles)
    .values({ userId, skippedAt: sql`now()` })
    .onConflictDoUpdate({
      target: userProfiles.userId,
      set: { skippedAt: sql`now()`, updatedAt: sql`now()` },
      setWhere: sql`${userProfiles.completedAt} is null and ${userProfiles.skippedAt} is null`,
    });
  return (await findProfile(db, userId))!;
}

/**
 * Which of `setIds` (the caller's photo sets) are taken: a model is training or trained on it, or a
 * purchase that still stands uses it. A failed or cancelled training, or a purchase that ended
 * refunded or cancelled, gives its photos back: they wait to be used again. So does a purchase
 * waiting for photos: the set it names was too small or too large to train on (photos removed after
 * it was chosen), and the person fixes it and gives it again through the same list.
 */
export async function setsInUse(db: DbOrTx, userId: string, setIds: string[]): Promise<Set<string>> {
  if (setIds.length === 0) return new Set();
  const [byModels, byPurchases] = await Promise.all([
    db
      .selectDistinct({ setId: trainedModels.setId })
      .from(trainedModels)
      .where(
        and(
          eq(trainedModels.userId, userId),
          isNotNull(trainedModels.setId),
          inArray(trainedModels.setId, setIds),
          inArray(trainedModels.status, ['training', 'ready']),
        ),
      ),
    db
      .selectDistinct({ setId: purchases.setId })
      .from(purchases)
      .where(
        and(
          eq(purchases.userId, userId),
          isNotNull(purchases.setId),
          inArray(purchases.setId, setIds),
          // A checkout not paid (yet, or ever) holds nothing: an abandoned one must not hide the set; nor
          // does a purchase waiting for photos (its set fell short and must be offered back to be fixed).
          notInArray(purchases.status, [
            'pending_payment',
            'failed',
            'refunded',
            'cancelled',
            'waiting_for_photos',
          ]),
        ),
      ),
  ]);
  return new Set([...byModels, ...byPurchases].map((r) => r.setId!));
}

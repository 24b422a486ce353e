import { and, count, eq, gte, inArray, lt, or, sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { images, jobs, purchases, type JobRow, type VendorAttempt } from '../../db/schema/index.ts';
import type { VendorRoute } from '../models/model-catalogue.ts';

/** Drizzle queries for jobs; each takes the database or an open transaction. */

export const ACTIVE_STATUSES = ['queued', 'running'] as const;

export type NewJob = typeof jobs.$inferInsert;

export async function insertJob(db: DbOrTx, job: NewJob): Promise<JobRow> {
  const [row] = await db.insert(jobs).values(job).returning();
  return row!;
}

export async function findJob(db: DbOrTx, id: string): Promise<JobRow | undefined> {
  const [row] = await db.select().from(jobs).where(eq(jobs.id, id));
  return row;
}

export async function findUserJob(db: DbOrTx, userId: string, id: string): Promise<JobRow | undefined> {
  const [row] = await db
    .select()
    .from(jobs)
    .where(and(eq(jobs.id, id), eq(jobs.userId, userId)));
  return row;
}

/** The product name of the purchase a job is a stage of (its snapshot at purchase time). */
export async function purchaseProductName(db: DbOrTx, purchaseId: string): Promise<string | undefined> {
  const [row] = await db
    .select({ name: sql<string | null>`${purchases.product}->>'name'` })
    .from(purchases)
    .where(eq(purchases.id, purchaseId));
  return row?.name ?? undefined;
}

export async function findByProviderRequest(db: DbOrTx, provider: string, requestId: string) {
  const [row] = await db
    .select()
    .from(jobs)
    .where(and(eq(jobs.provider, provider), eq(jobs.providerRequestId, requestId)));
  return row;
}

/**
 * Moves a job between states only from the states given. Returns the updated row, or undefined when
 * the job was no longer in one of them: that is how "finishes exactly once" is enforced when a
 * worker, a webhook and a cancel race each other.
 */
export async function transition(
  db: DbOrTx,
  id: string,
  from: readonly string[],
  set: { [K in keyof NewJob]?: NewJob[K] | SQL },
): Promise<JobRow | undefined> {
  const [row] = await db
    .update(jobs)
    .set({ ...set, updatedAt: sql`now()` })
    .where(and(eq(jobs.id, id), inArray(jobs.status, [...from])))
    .returning();
  return row;
}

/** `now()` for a job that cost something, else null: a free job (a purchase's stage) refunds nothing itself. */
export const NOW_IF_PAID = sql`case when ${jobs.cost} > 0 then now() end`;

/**
 * Progress fields only, while the job is still active (and, when `provider` is given, still with that
 * vendor: a request id is never recorded against a vendor the job has moved to).
 */
export async function updateProgress(
  db: DbOrTx,
  id: string,
  set: Partial<NewJob>,
  provider?: string,
): Promise<boolean> {
  const rows = await db
    .update(jobs)
    .set({ ...set, updatedAt: sql`now()` })
    .where(
      and(
        eq(jobs.id, id),
        inArray(jobs.status, [...ACTIVE_STATUSES]),
        provider === undefined ? undefined : eq(jobs.provider, provider),
      ),
    )
    .returning({ id: jobs.id });
  return rows.length > 0;
}

/** `vendor_attempts` with these appended (for a `set`). */
export const appendAttempts = (attempts: readonly VendorAttempt[]): SQL =>
  sql`${jobs.vendorAttempts} || ${JSON.stringify(attempts)}::jsonb`;

/** Adds vendor turns to an active job's record. */
export async function recordAttempts(db: DbOrTx, id: string, attempts: readonly VendorAttempt[]) {
  if (attempts.length === 0) return;
  await transition(db, id, ACTIVE_STATUSES, { vendorAttempts: appendAttempts(attempts) });
}

/**
 * Hands an active job to another vendor (failover), in one statement: the new vendor and its model
 * name, the old vendor's request id forgotten (never polled at the new one), and the turns that led
 * here appended to the record. Undefined when the job is no longer active.
 */
export async function moveVendor(
  db: DbOrTx,
  id: string,
  to: VendorRoute,
  attempts: readonly VendorAttempt[],
  set: Partial<NewJob> = {},
): Promise<JobRow | undefined> {
  return transition(db, id, ACTIVE_STATUSES, {
    ...set,
    provider: to.provider,
    providerModel: to.providerModel,
    providerRequestId: null,
    providerStatus: null,
    queuePosition: null,
    // The old vendor's live preview is not what the new one is making.
    previewAt: null,
    vendorAttempts: appendAttempts(attempts),
  });
}

/** The user's active jobs and those finished in the last day, newest first. */
export async function listRecentJobs(db: DbOrTx, userId: string, limit = 20): Promise<JobRow[]> {
  return (
    db
      .select()
      .from(jobs)
      .where(
        and(
          eq(jobs.userId, userId),
          or(inArray(jobs.status, [...ACTIVE_STATUSES]), gte(jobs.createdAt, sql`now() - interval '1 day'`)),
        ),
      )
      // Matches jobs_user_created_idx (DESC NULLS LAST); see images.repository.ts listImages.
      .orderBy(sql`${jobs.createdAt} desc nulls last`)
      .limit(limit)
  );
}

/** How many queued jobs on the same provider are ahead of this one (0 = next). */
export async function queuedAhead(db: DbOrTx, job: Pick<JobRow, 'provider' | 'createdAt'>): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(jobs)
    .where(
      and(eq(jobs.status, 'queued'), eq(jobs.provider, job.provider), lt(jobs.createdAt, job.createdAt)),
    );
  return row?.n ?? 0;
}

/** Image ids produced by each job, oldest first. */
export async function imageIdsByJob(db: DbOrTx, jobIds: string[]): Promise<Map<string, string[]>> {
  const result = new Map<string, string[]>();
  if (jobIds.length === 0) return result;
  const rows = await db
    .select({ id: images.id, jobId: images.jobId })
    .from(images)
    .where(inArray(images.jobId, jobIds))
    .orderBy(images.createdAt, images.id);
  for (const row of rows) {
    if (!row.jobId) continue;
    result.set(row.jobId, [...(result.get(row.jobId) ?? []), row.id]);
  }
  return result;
}

/**
 * A fingerprint of the user's jobs that changes whenever any of them does (for the SSE loop), and
 * whenever one of their purchases moves on (a photo shoot's stage is not always a job's change).
 */
export async function jobsVersion(db: DbOrTx, userId: string): Promise<string> {
  const purchased = sql`(select coalesce(max(${purchases.updatedAt})::text, '') from ${purchases} where ${purchases.userId} = ${userId})`;
  const [row] = await db
    .select({
      v: sql<string>`coalesce(max(${jobs.updatedAt})::text, '') || ':' || count(*)::text || ':' || ${purchased}`,
    })
    .from(jobs)
    .where(eq(jobs.userId, userId));
  return row?.v ?? '';
}

/** The public counters (GET /api/counter). Deleting an image or a model does not lower them. */
export interface PublicCounters {
  /** Images made: succeeded jobs' outputs. */
  images: number;
  /** Models trained to completion: succeeded training jobs. */
  modelsTrained: number;
  /** Photo shoots delivered. */
  shootsDelivered: number;
}

export async function countPublic(db: DbOrTx): Promise<PublicCounters> {
  const [row] = await db
    .select({
      images: sql<number>`coalesce(sum(${jobs.numImages}), 0)::int`,
      modelsTrained: sql<number>`count(*) filter (where ${jobs.kind} = 'train')::int`,
      shootsDelivered: sql<number>`(select count(*) from ${purchases} where ${purchases.deliveredAt} is not null)::int`,
    })
    .from(jobs)
    .where(eq(jobs.status, 'succeeded'));
  return {
    images: row?.images ?? 0,
    modelsTrained: row?.modelsTrained ?? 0,
    shootsDelivered: row?.shootsDelivered ?? 0,
  };
}

import { and, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { jobs, videos, type JobRow, type VideoRow } from '../../db/schema/index.ts';
import type { Cursor } from '../../http/page-cursor.ts';

/** Drizzle queries for videos; each takes the database or an open transaction. */

export type NewVideo = typeof videos.$inferInsert;

export async function insertVideo(db: DbOrTx, row: NewVideo): Promise<void> {
  await db.insert(videos).values(row);
}

/**
 * One page of the owner's video jobs (of the given kinds), newest first, each with its stored video
 * once one exists (keyset on created_at, id: jobs_user_created_idx).
 */
export async function listVideoJobs(
  db: DbOrTx,
  userId: string,
  filter: { kinds: string[]; saved?: boolean; cursor?: Cursor; limit: number },
): Promise<Array<{ job: JobRow; video: VideoRow | null }>> {
  const conditions: SQL[] = [eq(jobs.userId, userId), inArray(jobs.kind, filter.kinds)];
  if (filter.saved !== undefined) {
    conditions.push(
      filter.saved ? eq(videos.isSaved, true) : sql`coalesce(${videos.isSaved}, false) = false`,
    );
  }
  if (filter.cursor) {
    conditions.push(
      sql`(${jobs.createdAt}, ${jobs.id}) < (${filter.cursor.at.toISOString()}::timestamptz, ${filter.cursor.id}::uuid)`,
    );
  }
  return (
    db
      .select({ job: jobs, video: videos })
      .from(jobs)
      .leftJoin(videos, eq(videos.jobId, jobs.id))
      .where(and(...conditions))
      // Matches jobs_user_created_idx (declared DESC NULLS LAST); see images.repository.ts.
      .orderBy(sql`${jobs.createdAt} desc nulls last`, sql`${jobs.id} desc nulls last`)
      .limit(filter.limit)
  );
}

/** Marks the owner's video of a job saved or not; undefined when the job has no video yet. */
export async function setVideoSaved(
  db: DbOrTx,
  userId: string,
  jobId: string,
  saved: boolean,
): Promise<VideoRow | undefined> {
  const [row] = await db
    .update(videos)
    .set({ isSaved: saved })
    .where(and(eq(videos.jobId, jobId), eq(videos.userId, userId)))
    .returning();
  return row;
}

export async function findVideoOfJob(db: DbOrTx, jobId: string): Promise<VideoRow | undefined> {
  const [row] = await db.select().from(videos).where(eq(videos.jobId, jobId));
  return row;
}

/** Deletes the owner's job (its video row cascades; the ledger keeps the charge and any refund). */
export async function deleteVideoJob(db: DbOrTx, userId: string, jobId: string): Promise<void> {
  await db.delete(jobs).where(and(eq(jobs.id, jobId), eq(jobs.userId, userId)));
}

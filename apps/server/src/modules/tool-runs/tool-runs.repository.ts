import { and, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { images, jobs, videos, type JobRow, type VideoRow } from '../../db/schema/index.ts';
import type { Cursor } from '../../http/page-cursor.ts';
import { favoriteOf, type ImageWithFavorite } from '../images/images.repository.ts';

/** Drizzle queries for a person's Studio runs; every one is scoped to the owner's id. */

/** One page of the owner's tool jobs, newest first (keyset on created_at, id: jobs_user_created_idx). */
export async function listToolJobs(
  db: DbOrTx,
  userId: string,
  filter: { kinds: readonly string[]; tool?: string; cursor?: Cursor; limit: number },
): Promise<JobRow[]> {
  const conditions: SQL[] = [
    eq(jobs.userId, userId),
    filter.tool ? eq(jobs.kind, filter.tool) : inArray(jobs.kind, [...filter.kinds]),
  ];
  // Job times have microseconds and page cursors carry milliseconds: order and compare on the
  // millisecond so a page boundary inside one millisecond neither skips nor repeats a run.
  const at = sql`date_trunc('milliseconds', ${jobs.createdAt})`;
  if (filter.cursor) {
    conditions.push(
      sql`(${at}, ${jobs.id}) < (${filter.cursor.at.toISOString()}::timestamptz, ${filter.cursor.id}::uuid)`,
    );
  }
  return db
    .select()
    .from(jobs)
    .where(and(...conditions))
    .orderBy(sql`${at} desc`, sql`${jobs.id} desc`)
    .limit(filter.limit);
}

/** The owner's images made by each of `jobIds`, oldest first. */
export async function ownImagesByJobs(
  db: DbOrTx,
  userId: string,
  jobIds: string[],
): Promise<ImageWithFavorite[]> {
  if (jobIds.length === 0) return [];
  const rows = await db
    .select({ image: images, isFavorite: favoriteOf(userId) })
    .from(images)
    .where(and(eq(images.userId, userId), inArray(images.jobId, jobIds)))
    .orderBy(images.createdAt, images.id);
  return rows.map((r) => ({ ...r.image, isFavorite: Boolean(r.isFavorite) }));
}

/** The owner's videos made by `jobIds`. */
export async function ownVideosByJobs(db: DbOrTx, userId: string, jobIds: string[]): Promise<VideoRow[]> {
  if (jobIds.length === 0) return [];
  return db
    .select()
    .from(videos)
    .where(and(eq(videos.userId, userId), inArray(videos.jobId, jobIds)));
}

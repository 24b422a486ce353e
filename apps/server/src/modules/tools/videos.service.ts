import type { ImageView, VideoView } from '@lumina/contracts';
import { and, eq, sql, type SQL } from 'drizzle-orm';
import type { Storage } from '../../adapters/storage/index.ts';
import type { Database } from '../../db/client.ts';
import { jobs, videos, type JobRow, type VideoRow } from '../../db/schema/index.ts';
import { AppError, notFound } from '../../errors.ts';
import * as jobsRepo from '../generation/generation.repository.ts';
import type { ProgressBus } from '../generation/progress.bus.ts';
import { decodeCursor, encodeCursor } from '../../http/page-cursor.ts';
import { IMAGE_URL_TTL_SECONDS, toImageView } from '../images/images.mapper.ts';
import { ownImagesByIds } from '../tool-runs/tool-runs.repository.ts';
import type { ToolJobInput } from './tool-recipe.ts';

const sourceIdOf = (job: JobRow) => (job.input as unknown as ToolJobInput).sourceImageIds?.[0] ?? null;

/**
 * A person's videos: their animate jobs (so queued, running and failed ones show with their status)
 * joined to the stored MP4 once one exists. Only the owner ever reaches a row.
 */
export class VideosService {
  constructor(
    private readonly db: Database,
    private readonly storage: Storage,
    private readonly bus: ProgressBus,
  ) {}

  async list(userId: string, query: { cursor?: string; limit: number; is_saved?: boolean }) {
    const cursor = decodeCursor(query.cursor);
    const conditions: SQL[] = [eq(jobs.userId, userId), eq(jobs.kind, 'animate')];
    if (query.is_saved !== undefined) {
      conditions.push(
        query.is_saved ? eq(videos.isSaved, true) : sql`coalesce(${videos.isSaved}, false) = false`,
      );
    }
    if (cursor) {
      conditions.push(
        sql`(${jobs.createdAt}, ${jobs.id}) < (${cursor.at.toISOString()}::timestamptz, ${cursor.id}::uuid)`,
      );
    }
    const rows = await this.db
      .select({ job: jobs, video: videos })
      .from(jobs)
      .leftJoin(videos, eq(videos.jobId, jobs.id))
      .where(and(...conditions))
      // Matches jobs_user_created_idx (declared DESC NULLS LAST); see images.repository.ts.
      .orderBy(sql`${jobs.createdAt} desc nulls last`, sql`${jobs.id} desc nulls last`)
      .limit(query.limit + 1);
    const page = rows.slice(0, query.limit);
    const last = page.at(-1);
    return {
      items: await this.views(userId, page),
      next_cursor: rows.length > query.limit && last ? encodeCursor(last.job.createdAt, last.job.id) : null,
    };
  }

  /** Saves or unsaves a finished video; one still being made (or failed) has nothing to keep yet. */
  async setSaved(userId: string, jobId: string, saved: boolean): Promise<VideoView> {
    const job = await jobsRepo.findUserJob(this.db, userId, jobId);
    if (!job || job.kind !== 'animate') throw notFound('This video');
    const [video] = await this.db
      .update(videos)
      .set({ isSaved: saved })
      .where(and(eq(videos.jobId, job.id), eq(videos.userId, userId)))
      .returning();
    if (!video) throw new AppError('CONFLICT', 'This video is not ready yet: save it once it has been made.');
    const [view] = await this.views(userId, [{ job, video }]);
    return view!;
  }

  /** Deletes a finished, failed or cancelled video (job, row and files); an active one must be cancelled first. */
  async delete(userId: string, jobId: string) {
    const job = await jobsRepo.findUserJob(this.db, userId, jobId);
    if (!job || job.kind !== 'animate') throw notFound('This video');
    if (jobsRepo.ACTIVE_STATUSES.includes(job.status as 'queued')) {
      throw new AppError('CONFLICT', 'This video is still being made. Cancel it first.');
    }
    const [video] = await this.db.select().from(videos).where(eq(videos.jobId, job.id));
    // The job row goes too (its video row cascades); the ledger keeps the charge and any refund.
    await this.db.delete(jobs).where(and(eq(jobs.id, job.id), eq(jobs.userId, userId)));
    if (video) {
      await Promise.all([this.storage.delete(video.storageKey), this.storage.delete(video.posterKey)]);
    }
    this.bus.changed(userId);
  }

  /** The wire views of the owner's animate jobs, with each one's source image (one query for all of them). */
  async views(userId: string, rows: Array<{ job: JobRow; video: VideoRow | null }>): Promise<VideoView[]> {
    const ids = [...new Set(rows.map((r) => sourceIdOf(r.job)).filter((id): id is string => id !== null))];
    const sources = new Map<string, ImageView>();
    for (const image of await ownImagesByIds(this.db, userId, ids)) {
      sources.set(image.id, await toImageView(this.storage, image, userId));
    }
    return Promise.all(rows.map((r) => this.view(r.job, r.video, sources)));
  }

  private async view(
    job: JobRow,
    video: VideoRow | null,
    sources: Map<string, ImageView>,
  ): Promise<VideoView> {
    const input = job.input as unknown as ToolJobInput;
    const sign = (key: string) => this.storage.url(key, { expiresInSeconds: IMAGE_URL_TTL_SECONDS });
    const sourceId = sourceIdOf(job);
    return {
      id: job.id,
      status: job.status as VideoView['status'],
      percent: job.percent,
      error: job.error,
      prompt: input.prompt ?? null,
      model: job.modelId,
      source_image_id: sourceId,
      source_image: sourceId ? (sources.get(sourceId) ?? null) : null,
      is_saved: video?.isSaved ?? false,
      url: video ? await sign(video.storageKey) : null,
      poster_url: video ? await sign(video.posterKey) : null,
      duration_seconds: video ? Math.round(video.durationSeconds * 100) / 100 : null,
      width: video?.width ?? null,
      height: video?.height ?? null,
      bytes: video?.bytes ?? null,
      cost: job.cost,
      created_at: job.createdAt.toISOString(),
    };
  }
}

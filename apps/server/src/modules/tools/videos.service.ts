import type { VideoView } from '@lumina/contracts';
import { and, eq, sql, type SQL } from 'drizzle-orm';
import type { Storage } from '../../adapters/storage/index.ts';
import type { Database } from '../../db/client.ts';
import { jobs, videos, type JobRow, type VideoRow } from '../../db/schema/index.ts';
import { AppError, notFound } from '../../errors.ts';
import * as jobsRepo from '../generation/generation.repository.ts';
import type { ProgressBus } from '../generation/progress.bus.ts';
import { decodeCursor, encodeCursor } from '../../http/page-cursor.ts';
import { IMAGE_URL_TTL_SECONDS } from '../images/images.mapper.ts';
import type { ToolJobInput } from './tool-recipe.ts';

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

  async list(userId: string, query: { cursor?: string; limit: number }) {
    const cursor = decodeCursor(query.cursor);
    const conditions: SQL[] = [eq(jobs.userId, userId), eq(jobs.kind, 'animate')];
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
      items: await Promise.all(page.map((r) => this.view(r.job, r.video))),
      next_cursor: rows.length > query.limit && last ? encodeCursor(last.job.createdAt, last.job.id) : null,
    };
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

  private async view(job: JobRow, video: VideoRow | null): Promise<VideoView> {
    const input = job.input as unknown as ToolJobInput;
    const sign = (key: string) => this.storage.url(key, { expiresInSeconds: IMAGE_URL_TTL_SECONDS });
    return {
      id: job.id,
      status: job.status as VideoView['status'],
      percent: job.percent,
      error: job.error,
      prompt: input.prompt ?? null,
      model: job.modelId,
      source_image_id: input.sourceImageIds?.[0] ?? null,
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

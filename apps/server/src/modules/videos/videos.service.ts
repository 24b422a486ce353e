import type { ImageCredentialsView, ImageView, VideoView } from '@lumina/contracts';
import type { Storage } from '../../adapters/storage/index.ts';
import type { Database } from '../../db/client.ts';
import type { JobRow, VideoRow } from '../../db/schema/index.ts';
import { AppError, notFound } from '../../errors.ts';
import { decodeCursor, encodeCursor } from '../../http/page-cursor.ts';
import { credentialsView } from '../images/credentials-view.ts';
import { IMAGE_URL_TTL_SECONDS, toImageView } from '../images/images.mapper.ts';
import { ownImagesByIds } from '../images/images.repository.ts';
import * as jobsRepo from '../jobs/jobs.repository.ts';
import type { JobKinds } from '../jobs/kinds.ts';
import type { ProgressBus } from '../jobs/progress.bus.ts';
import { toVideoView } from './videos.mapper.ts';
import * as repo from './videos.repository.ts';

/**
 * A person's videos: their jobs whose output is a video (so queued, running and failed ones show with
 * their status) joined to the stored MP4 once one exists. Only the owner ever reaches a row.
 */
export class VideosService {
  constructor(
    private readonly deps: {
      db: Database;
      storage: Storage;
      bus: ProgressBus;
      kinds: Pick<JobKinds, 'get' | 'withOutput'>;
    },
  ) {}

  private get videoKinds() {
    return this.deps.kinds.withOutput('video');
  }

  async list(userId: string, query: { cursor?: string; limit: number; is_saved?: boolean }) {
    const rows = await repo.listVideoJobs(this.deps.db, userId, {
      kinds: this.videoKinds,
      saved: query.is_saved,
      cursor: decodeCursor(query.cursor),
      limit: query.limit + 1,
    });
    const page = rows.slice(0, query.limit);
    const last = page.at(-1);
    return {
      items: await this.views(userId, page),
      next_cursor: rows.length > query.limit && last ? encodeCursor(last.job.createdAt, last.job.id) : null,
    };
  }

  /** Saves or unsaves a finished video; one still being made (or failed) has nothing to keep yet. */
  async setSaved(userId: string, jobId: string, saved: boolean): Promise<VideoView> {
    const job = await this.videoJob(userId, jobId);
    const video = await repo.setVideoSaved(this.deps.db, userId, job.id, saved);
    if (!video) throw new AppError('CONFLICT', 'This video is not ready yet: save it once it has been made.');
    const [view] = await this.views(userId, [{ job, video }]);
    return view!;
  }

  /** The C2PA content credentials read back from the stored MP4 (owner only; others: 404). */
  async credentials(userId: string, jobId: string): Promise<ImageCredentialsView> {
    const job = await this.videoJob(userId, jobId);
    const video = await repo.findVideoOfJob(this.deps.db, job.id);
    if (!video) throw new AppError('CONFLICT', 'This video is not ready yet: its credentials come with it.');
    return credentialsView(this.deps.storage, video.storageKey);
  }

  /** Deletes a finished, failed or cancelled video (job, row and files); an active one must be cancelled first. */
  async delete(userId: string, jobId: string) {
    const { db, storage, bus } = this.deps;
    const job = await this.videoJob(userId, jobId);
    if (jobsRepo.ACTIVE_STATUSES.includes(job.status as 'queued')) {
      throw new AppError('CONFLICT', 'This video is still being made. Cancel it first.');
    }
    const video = await repo.findVideoOfJob(db, job.id);
    await repo.deleteVideoJob(db, userId, job.id);
    if (video) await Promise.all([storage.delete(video.storageKey), storage.delete(video.posterKey)]);
    bus.changed(userId);
  }

  /** The wire views of the owner's video jobs, with each one's source image (one query for all of them). */
  async views(userId: string, rows: Array<{ job: JobRow; video: VideoRow | null }>): Promise<VideoView[]> {
    const { db, storage, kinds } = this.deps;
    const made = rows.map((r) => kinds.get(r.job.kind).describe(r.job));
    const ids = [...new Set(made.map((m) => m.sourceImageId).filter((id): id is string => id !== null))];
    const sources = new Map<string, ImageView>();
    for (const image of await ownImagesByIds(db, userId, ids)) {
      sources.set(image.id, await toImageView(storage, image, userId));
    }
    const sign = (key: string) => storage.url(key, { expiresInSeconds: IMAGE_URL_TTL_SECONDS });
    return Promise.all(
      rows.map(async ({ job, video }, i) => {
        const { prompt, sourceImageId } = made[i]!;
        return toVideoView(job, video, {
          prompt,
          sourceImageId,
          source: sourceImageId ? (sources.get(sourceImageId) ?? null) : null,
          url: video ? await sign(video.storageKey) : null,
          posterUrl: video ? await sign(video.posterKey) : null,
        });
      }),
    );
  }

  /** The owner's job if it makes a video; another person's (or another kind) answers like a missing one. */
  private async videoJob(userId: string, jobId: string) {
    const job = await jobsRepo.findUserJob(this.deps.db, userId, jobId);
    if (!job || !this.videoKinds.includes(job.kind)) throw notFound('This video');
    return job;
  }
}

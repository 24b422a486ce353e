import { TOOLS, type ImageView, type ToolRunView } from '@lumina/contracts';
import type { UrlSigner } from '../../adapters/storage/signed-url-cache.ts';
import type { Database } from '../../db/client.ts';
import { decodeCursor, encodeCursor } from '../../http/page-cursor.ts';
import { toImageView } from '../images/images.mapper.ts';
import { ownImagesByIds } from '../images/images.repository.ts';
import type { ToolJobInput } from '../tools/tool-recipe.ts';
import type { VideosService } from '../videos/videos.service.ts';
import { toToolRunView } from './tool-runs.mapper.ts';
import * as repo from './tool-runs.repository.ts';

/**
 * The Studio's history: a person's tool jobs with their source images, settings and results, read from
 * the jobs, images and videos tables (nothing kept in the browser). Only the owner's rows are read.
 */
export class ToolRunsService {
  constructor(
    private readonly deps: {
      db: Database;
      urls: UrlSigner;
      videos: Pick<VideosService, 'views'>;
    },
  ) {}

  async list(
    userId: string,
    query: { tool?: string; cursor?: string; limit: number },
  ): Promise<{ items: ToolRunView[]; next_cursor: string | null }> {
    const { db, urls, videos } = this.deps;
    const rows = await repo.listToolJobs(db, userId, {
      kinds: TOOLS,
      tool: query.tool,
      cursor: decodeCursor(query.cursor),
      limit: query.limit + 1,
    });
    const page = rows.slice(0, query.limit);
    const jobIds = page.map((j) => j.id);
    const sourceIds = [
      ...new Set(page.flatMap((j) => (j.input as unknown as ToolJobInput).sourceImageIds ?? [])),
    ];
    const [sourceRows, outputRows, videoRows] = await Promise.all([
      ownImagesByIds(db, userId, sourceIds),
      repo.ownImagesByJobs(db, userId, jobIds),
      repo.ownVideosByJobs(db, userId, jobIds),
    ]);
    const view = (row: (typeof sourceRows)[number]) => toImageView(urls, row, userId);
    const sources = new Map<string, ImageView>();
    for (const row of sourceRows) sources.set(row.id, await view(row));
    const outputs = new Map<string, ImageView[]>();
    for (const row of outputRows) {
      outputs.set(row.jobId!, [...(outputs.get(row.jobId!) ?? []), await view(row)]);
    }
    const videoOf = new Map(videoRows.map((v) => [v.jobId, v]));
    const videoJobs = page.filter((j) => videoOf.has(j.id));
    const videoViews = await videos.views(
      userId,
      videoJobs.map((job) => ({ job, video: videoOf.get(job.id)! })),
    );
    const last = page.at(-1);
    return {
      items: page.map((job) =>
        toToolRunView(job, {
          inputs: ((job.input as unknown as ToolJobInput).sourceImageIds ?? []).map(
            (id) => sources.get(id) ?? null,
          ),
          outputs: outputs.get(job.id) ?? [],
          video: videoOf.has(job.id) ? (videoViews[videoJobs.indexOf(job)] ?? null) : null,
        }),
      ),
      next_cursor: rows.length > query.limit && last ? encodeCursor(last.createdAt, last.id) : null,
    };
  }
}

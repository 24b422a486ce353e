import type { ImageView, VideoView } from '@lumina/contracts';
import type { JobRow, VideoRow } from '../../db/schema/index.ts';

/** A video job (and its stored video, once made) → wire. URLs are signed by the caller. */
export function toVideoView(
  job: JobRow,
  video: VideoRow | null,
  made: {
    prompt: string | null;
    sourceImageId: string | null;
    source: ImageView | null;
    url: string | null;
    posterUrl: string | null;
  },
): VideoView {
  return {
    id: job.id,
    status: job.status as VideoView['status'],
    percent: job.percent,
    error: job.error,
    prompt: made.prompt,
    model: job.modelId,
    source_image_id: made.sourceImageId,
    source_image: made.source,
    is_saved: video?.isSaved ?? false,
    url: made.url,
    poster_url: made.posterUrl,
    duration_seconds: video ? Math.round(video.durationSeconds * 100) / 100 : null,
    width: video?.width ?? null,
    height: video?.height ?? null,
    bytes: video?.bytes ?? null,
    cost: job.cost,
    created_at: job.createdAt.toISOString(),
  };
}

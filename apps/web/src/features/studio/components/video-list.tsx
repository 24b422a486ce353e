import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { VideoView } from '@lumina/contracts';
import { DownloadIcon, FilmIcon, TrashIcon } from '@/components/ui/icons';
import { Spinner } from '@/components/ui/spinner';
import { useDeleteVideo } from '../api/delete-video';
import { isActiveVideo, useVideos } from '../api/list-videos';
import { formatBytes } from '../utils/file-input';

/** An MP4 that plays in the page, with its poster frame until it starts. */
export function VideoPlayer({
  video,
  preload = 'metadata',
  testId,
}: {
  video: VideoView;
  preload?: 'none' | 'metadata' | 'auto';
  testId?: string;
}) {
  const { t } = useTranslation();
  if (!video.url) return null;
  return (
    <video
      controls
      playsInline
      preload={preload}
      poster={video.poster_url ?? undefined}
      src={video.url}
      width={video.width ?? undefined}
      height={video.height ?? undefined}
      data-testid={testId}
      aria-label={video.prompt ?? t('studio.videos.untitled')}
      className="h-auto w-full rounded-2xl bg-black"
    />
  );
}

/** Length, pixel size and file size of a video, as one line. */
export function VideoFacts({ video, testId }: { video: VideoView; testId?: string }) {
  const { t } = useTranslation();
  const facts = [
    video.duration_seconds !== null
      ? t('studio.videos.duration', { value: Math.round(video.duration_seconds * 10) / 10 })
      : null,
    video.width && video.height
      ? t('studio.result.size', { width: video.width, height: video.height })
      : null,
    video.bytes !== null ? formatBytes(video.bytes) : null,
  ].filter(Boolean);
  return (
    <span data-testid={testId} className="tabular-nums">
      {facts.join(' · ')}
    </span>
  );
}

/** The user's videos, newest first: status, poster, length, size, play, download and delete. */
export function VideoList() {
  const { t } = useTranslation();
  const videos = useVideos();
  const items = videos.data?.items ?? [];
  return (
    <section aria-labelledby="videos-heading" data-testid="video-list">
      <h3 id="videos-heading" className="mb-3 text-base font-semibold">
        {t('studio.videos.title')}
      </h3>
      {videos.isPending ? (
        <div className="flex justify-center py-8" aria-busy="true">
          <Spinner />
        </div>
      ) : videos.isError ? (
        <p role="alert" className="text-sm text-red-600 dark:text-red-400">
          {videos.error.message}
        </p>
      ) : items.length === 0 ? (
        <p className="rounded-2xl border border-dashed border-zinc-300 px-4 py-8 text-center text-sm text-zinc-600 dark:border-zinc-700 dark:text-zinc-400">
          {t('studio.videos.empty')}
        </p>
      ) : (
        <ul className="grid gap-3 sm:grid-cols-2">
          {items.map((video) => (
            <li key={video.id}>
              <VideoCard video={video} />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function VideoCard({ video }: { video: VideoView }) {
  const { t } = useTranslation();
  const remove = useDeleteVideo();
  const [confirming, setConfirming] = useState(false);
  const active = isActiveVideo(video);
  return (
    <article
      data-testid="video-card"
      data-video-id={video.id}
      data-status={video.status}
      className="flex h-full flex-col gap-2 rounded-2xl border border-zinc-200 bg-white p-3 dark:border-zinc-800 dark:bg-zinc-900"
    >
      {video.status === 'succeeded' && video.url ? (
        <VideoPlayer video={video} preload="none" />
      ) : (
        <div className="flex aspect-video items-center justify-center overflow-hidden rounded-2xl bg-zinc-100 text-3xl text-zinc-400 dark:bg-zinc-800">
          {video.poster_url ? (
            <img src={video.poster_url} alt="" className="size-full object-cover" />
          ) : active ? (
            <Spinner />
          ) : (
            <FilmIcon />
          )}
        </div>
      )}
      <p className="line-clamp-2 text-sm font-medium">{video.prompt ?? t('studio.videos.untitled')}</p>
      <p className="flex flex-wrap items-center gap-x-2 gap-y-1 text-xs text-zinc-500 tabular-nums dark:text-zinc-400">
        <span data-testid="video-status" className="font-semibold">
          {active && video.percent !== null
            ? t('studio.videos.progress', { percent: video.percent })
            : t(`studio.run.status.${video.status}`)}
        </span>
        <span aria-hidden="true">·</span>
        <VideoFacts video={video} />
      </p>
      {video.status === 'failed' && video.error && (
        <p className="text-xs text-red-600 dark:text-red-400">{video.error}</p>
      )}
      {!active && (
        <div className="mt-auto flex flex-wrap items-center gap-2 pt-1">
          {video.url && (
            <a
              href={video.url}
              download={`lumina-video-${video.id.slice(0, 8)}.mp4`}
              className="inline-flex items-center gap-1.5 rounded-lg border border-zinc-300 px-2.5 py-1 text-xs font-semibold hover:bg-zinc-100 dark:border-zinc-700 dark:hover:bg-zinc-800"
            >
              <DownloadIcon />
              {t('studio.videos.download')}
            </a>
          )}
          {confirming ? (
            <>
              <button
                type="button"
                onClick={() => remove.mutate(video.id)}
                disabled={remove.isPending}
                data-testid="video-delete-confirm"
                className="rounded-lg bg-red-600 px-2.5 py-1 text-xs font-semibold text-white hover:bg-red-700 disabled:opacity-60"
              >
                {t('studio.videos.confirmDelete')}
              </button>
              <button
                type="button"
                onClick={() => setConfirming(false)}
                className="rounded-lg px-2.5 py-1 text-xs font-semibold text-zinc-600 hover:bg-zinc-100 dark:text-zinc-400 dark:hover:bg-zinc-800"
              >
                {t('studio.videos.keep')}
              </button>
            </>
          ) : (
            <button
              type="button"
              onClick={() => setConfirming(true)}
              data-testid="video-delete"
              className="inline-flex items-center gap-1.5 rounded-lg px-2.5 py-1 text-xs font-semibold text-zinc-600 hover:bg-zinc-100 hover:text-red-600 dark:text-zinc-400 dark:hover:bg-zinc-800 dark:hover:text-red-400"
            >
              <TrashIcon />
              {t('studio.videos.delete')}
            </button>
          )}
        </div>
      )}
      {remove.error && (
        <p role="alert" className="text-xs text-red-600 dark:text-red-400">
          {remove.error.message}
        </p>
      )}
    </article>
  );
}

import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { TOOLS, type ImageView, type Tool, type VideoView } from '@lumina/contracts';
import { BookmarkIcon, DownloadIcon, FilmIcon, TrashIcon } from '@/components/ui/icons';
import { LoadingBlock } from '@/components/ui/query-states';
import { Spinner } from '@/components/ui/spinner';
import { useDeleteVideo } from '../api/delete-video';
import { isActiveVideo, useVideos } from '../api/list-videos';
import { useSaveVideo } from '../api/save-video';
import { formatBytes } from '../utils/file-input';
import { VideoCredentials } from './video-credentials';
import { Alert } from '@/components/ui/alert';

export type UseAs = (tool: Tool, image: ImageView) => void;

const chip =
  'inline-flex items-center gap-1.5 rounded-lg border border-zinc-300 px-2.5 py-1 text-xs font-semibold hover:bg-zinc-100 disabled:opacity-60 dark:border-zinc-700 dark:hover:bg-zinc-800';

/**
 * What a finished video offers besides playing: Save (kept in the collection), Download, "Use as
 * input" (the image it was made from, into another tool, or Animate again) and its content credentials.
 */
export function VideoActions({ video, onUseAs }: { video: VideoView; onUseAs?: UseAs }) {
  const { t } = useTranslation();
  const save = useSaveVideo();
  if (!video.url) return null;
  const source = video.source_image;
  return (
    <div className="flex flex-col gap-2" data-testid="video-actions">
      <div className="flex flex-wrap items-center gap-2">
        <button
          type="button"
          aria-pressed={video.is_saved}
          disabled={save.isPending}
          data-testid="video-save"
          onClick={() => save.mutate({ id: video.id, saved: !video.is_saved })}
          className={`${chip} ${video.is_saved ? 'border-brand-500 text-brand-700 dark:border-brand-400 dark:text-brand-300' : ''}`}
        >
          <BookmarkIcon filled={video.is_saved} />
          {video.is_saved ? t('studio.videos.saved') : t('studio.videos.save')}
        </button>
        <a
          href={video.url}
          download={`lumina-video-${video.id.slice(0, 8)}.mp4`}
          data-testid="video-download"
          className={chip}
        >
          <DownloadIcon />
          {t('studio.videos.download')}
        </a>
      </div>
      {save.error && (
        <Alert tone="error" inline size="xs">
          {save.error.message}
        </Alert>
      )}
      {source && onUseAs && (
        <div
          role="group"
          aria-label={t('studio.videos.useAs')}
          className="flex flex-wrap items-center gap-1.5"
        >
          <span className="text-xs font-semibold text-zinc-500 dark:text-zinc-400">
            {t('studio.videos.useAs')}
          </span>
          {TOOLS.map((tool) => (
            <button
              key={tool}
              type="button"
              data-testid={`video-use-as-${tool}`}
              onClick={() => onUseAs(tool, source)}
              aria-label={t('studio.videos.useAsLabel', { tool: t(`studio.tools.${tool}.name`) })}
              className="rounded-full bg-zinc-100 px-2.5 py-0.5 text-xs font-semibold text-zinc-700 hover:bg-brand-100 hover:text-brand-800 dark:bg-zinc-800 dark:text-zinc-300 dark:hover:bg-brand-500/20 dark:hover:text-brand-200"
            >
              {t(`studio.tools.${tool}.name`)}
            </button>
          ))}
        </div>
      )}
      <VideoCredentials video={video} />
    </div>
  );
}

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

/**
 * The user's videos, newest first: status, poster, length, size, play inline, save, download, use its
 * image as input, and delete. The Studio's Animate tab and the Gallery's Videos view both show it.
 */
export function VideoList({
  onUseAs,
  heading = true,
  columns = 'sm:grid-cols-2',
}: {
  onUseAs?: UseAs;
  /** False where the page already names the list (the Gallery's Videos tab). */
  heading?: boolean;
  columns?: string;
}) {
  const { t } = useTranslation();
  const videos = useVideos();
  const items = videos.data?.items ?? [];
  return (
    <section
      aria-labelledby={heading ? 'videos-heading' : undefined}
      aria-label={heading ? undefined : t('studio.videos.title')}
      data-testid="video-list"
    >
      {heading && (
        <h3 id="videos-heading" className="mb-3 text-base font-semibold">
          {t('studio.videos.title')}
        </h3>
      )}
      {videos.isPending ? (
        <LoadingBlock className="py-8" />
      ) : videos.isError ? (
        <Alert tone="error" inline>
          {videos.error.message}
        </Alert>
      ) : items.length === 0 ? (
        <p className="rounded-2xl border border-dashed border-zinc-300 px-4 py-8 text-center text-sm text-zinc-600 dark:border-zinc-700 dark:text-zinc-400">
          {t('studio.videos.empty')}
        </p>
      ) : (
        <ul className={`grid gap-3 ${columns}`}>
          {items.map((video) => (
            <li key={video.id}>
              <VideoCard video={video} onUseAs={onUseAs} />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function VideoCard({ video, onUseAs }: { video: VideoView; onUseAs?: UseAs }) {
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
      {!active && <VideoActions video={video} onUseAs={onUseAs} />}
      {!active && (
        <div className="mt-auto flex flex-wrap items-center gap-2 pt-1">
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
        <Alert tone="error" inline size="xs">
          {remove.error.message}
        </Alert>
      )}
    </article>
  );
}

import { useEffect, type ReactNode } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { ImageView, Tool } from '@lumina/contracts';
import type { JobState } from '@/components/jobs/job-status';
import { Spinner } from '@/components/ui/spinner';
import { useToolResults } from '../api/list-images';
import { useVideos, videosQueryKey } from '../api/list-videos';
import { studioStore } from '../stores/studio-store';
import { webTool } from '../tools';
import { inputUrl, type PickedInput, type ToolRun } from '../utils/inputs';
import { BeforeAfter } from './before-after';
import { ResultActions } from './result-actions';
import { VideoActions, VideoFacts, VideoPlayer } from './video-list';
import { Alert } from '@/components/ui/alert';

/** What shows an input in a result: its preview, or the stored copy when the preview could not be made. */
function sourceUrl(input: PickedInput | undefined): string | null {
  if (!input) return null;
  return inputUrl(input) ?? (input.source === 'file' ? (input.uploaded?.url ?? null) : null);
}

function sourceSize(input: PickedInput | undefined) {
  if (!input) return null;
  if (input.source === 'image') return { width: input.image.width, height: input.image.height };
  if (input.uploaded) return { width: input.uploaded.width, height: input.uploaded.height };
  return input.width && input.height ? { width: input.width, height: input.height } : null;
}

function Figure({
  label,
  url,
  size,
  testId,
  children,
}: {
  label: string;
  url: string | null;
  /** The picture's pixel size: the box takes its proportions (never cropped); square while unknown. */
  size?: { width: number; height: number } | null;
  testId?: string;
  children?: ReactNode;
}) {
  return (
    <figure className="flex flex-col gap-1.5">
      <div
        className="flex items-center justify-center overflow-hidden rounded-2xl bg-zinc-100 dark:bg-zinc-800"
        style={{
          aspectRatio: size ? `${Math.max(1, size.width)} / ${Math.max(1, size.height)}` : '1 / 1',
          maxHeight: '70vh',
        }}
      >
        {url && <img src={url} alt={label} data-testid={testId} className="size-full object-contain" />}
      </div>
      <figcaption className="text-xs text-zinc-500 dark:text-zinc-400">
        <span className="font-semibold text-zinc-700 dark:text-zinc-300">{label}</span>
        {children}
      </figcaption>
    </figure>
  );
}

interface RunResultProps {
  run: ToolRun;
  job: JobState;
  onUseAs: (tool: Tool, image: ImageView) => void;
}

/** A finished run's output: compared with the original (edit, upscale), beside its inputs, or as a video. */
export function RunResult({ run, job, onUseAs }: RunResultProps) {
  if (webTool(run.tool).result.kind === 'video') return <VideoResult run={run} job={job} onUseAs={onUseAs} />;
  return <ImageResult run={run} job={job} onUseAs={onUseAs} />;
}

function ImageResult({ run, job, onUseAs }: RunResultProps) {
  const { t } = useTranslation();
  const results = useToolResults(job.id, job.image_ids);
  // The result was deleted (in the Gallery, say): forget the run rather than show an empty card.
  const gone =
    job.status === 'succeeded' && results.isSuccess && !results.isFetching && results.data.items.length === 0;
  useEffect(() => {
    if (gone && studioStore.getState().runs[run.tool]?.jobId === run.jobId) {
      studioStore.getState().setRun(run.tool, null);
    }
  }, [gone, run.tool, run.jobId]);
  if (gone) return null;
  if (job.status !== 'succeeded' && job.image_ids.length === 0) return null;
  if (results.isError)
    return (
      <Alert tone="error" inline>
        {results.error.message}
      </Alert>
    );
  const image = results.data?.items[0];
  if (!image)
    return (
      <div className="flex items-center gap-2 py-6 text-sm text-zinc-500 dark:text-zinc-400" aria-busy="true">
        <Spinner className="size-4" />
        {t('studio.run.loadingResult')}
      </div>
    );

  const [first] = run.inputs;
  const resultSize = t('studio.result.size', { width: image.width, height: image.height });
  const layout = webTool(run.tool).result;
  let body: ReactNode;
  if (layout.kind === 'compare') {
    const before = sourceUrl(first);
    const from = sourceSize(first);
    body = (
      <>
        {before ? (
          <BeforeAfter before={before} after={image.url} width={image.width} height={image.height} />
        ) : (
          <Figure label={t('studio.result.result')} url={image.url} size={image} testId="result-image" />
        )}
        <p className="text-sm text-zinc-600 tabular-nums dark:text-zinc-400" data-testid="result-size">
          {layout.scaled && from
            ? t('studio.result.upscaled', {
                from: t('studio.result.size', from),
                to: resultSize,
                factor: run.factor ?? 2,
              })
            : resultSize}
        </p>
      </>
    );
  } else {
    const captions = layout.kind === 'beside' ? layout.captions : [];
    const sources = captions.map((caption, index) => ({ label: t(caption), input: run.inputs[index] }));
    body = (
      <div className={`grid gap-3 ${sources.length === 2 ? 'grid-cols-2 sm:grid-cols-3' : 'grid-cols-2'}`}>
        {sources.map((source) => (
          <Figure
            key={source.label}
            label={source.label}
            url={sourceUrl(source.input)}
            size={sourceSize(source.input)}
          />
        ))}
        <div className={sources.length === 2 ? 'col-span-2 sm:col-span-1' : ''}>
          <Figure label={t('studio.result.result')} url={image.url} size={image} testId="result-image">
            {' · '}
            <span data-testid="result-size" className="tabular-nums">
              {resultSize}
              {run.aspectRatio ? ` · ${run.aspectRatio}` : ''}
            </span>
          </Figure>
        </div>
      </div>
    );
  }
  return (
    <div className="flex flex-col gap-4" data-testid="run-result" data-image-id={image.id}>
      {body}
      <ResultActions image={image} onUseAs={onUseAs} />
    </div>
  );
}

function VideoResult({ run, job, onUseAs }: RunResultProps) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const videos = useVideos();
  const video = videos.data?.items.find((item) => item.id === run.jobId);
  const done = job.status === 'succeeded';
  // The list learns about the new video from the job feed: refresh it when the job starts and when it ends.
  useEffect(() => {
    void queryClient.invalidateQueries({ queryKey: videosQueryKey });
  }, [queryClient, job.status, run.jobId]);

  if (!done) return null;
  if (!video?.url)
    return (
      <div className="flex items-center gap-2 py-6 text-sm text-zinc-500 dark:text-zinc-400" aria-busy="true">
        <Spinner className="size-4" />
        {t('studio.run.loadingResult')}
      </div>
    );
  return (
    <div className="flex flex-col gap-2" data-testid="run-result">
      <VideoPlayer video={video} preload="auto" testId="result-video" />
      <p className="text-sm text-zinc-600 dark:text-zinc-400">
        <VideoFacts video={video} testId="result-size" />
      </p>
      <VideoActions video={video} onUseAs={onUseAs} />
    </div>
  );
}

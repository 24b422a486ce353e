import { useTranslation } from 'react-i18next';
import { TOOLS, type ImageView, type Tool } from '@lumina/contracts';
import { BookmarkIcon, DownloadIcon } from '@/components/ui/icons';
import { useSaveImage } from '@/lib/images/image-mutations';
import { Alert } from '@/components/ui/alert';

const extension = (contentType: string) => {
  const sub = contentType.split('/')[1]?.split(/[+;]/)[0] ?? 'png';
  return sub === 'jpeg' ? 'jpg' : sub;
};

export const downloadName = (image: Pick<ImageView, 'id' | 'kind' | 'content_type'>) =>
  `lumina-${image.kind.replace(/_/g, '-')}-${image.id.slice(0, 8)}.${extension(image.content_type)}`;

const chip =
  'inline-flex items-center gap-1.5 rounded-xl border border-zinc-300 px-3 py-1.5 text-sm font-semibold transition hover:bg-zinc-100 disabled:opacity-60 dark:border-zinc-700 dark:hover:bg-zinc-800';

/** Save, download and "use as input" for a tool's result. */
export function ResultActions({
  image,
  onUseAs,
}: {
  image: ImageView;
  onUseAs: (tool: Tool, image: ImageView) => void;
}) {
  const { t } = useTranslation();
  const save = useSaveImage();
  return (
    <div className="flex flex-col gap-3" data-testid="result-actions">
      <div className="flex flex-wrap items-center gap-2">
        <button
          type="button"
          aria-pressed={image.is_saved}
          disabled={save.isPending}
          data-testid="result-save"
          onClick={() => save.mutate({ id: image.id, saved: !image.is_saved })}
          className={`${chip} ${image.is_saved ? 'border-brand-500 text-brand-700 dark:border-brand-400 dark:text-brand-300' : ''}`}
        >
          <BookmarkIcon filled={image.is_saved} />
          {image.is_saved ? t('studio.result.saved') : t('studio.result.save')}
        </button>
        <a href={image.url} download={downloadName(image)} data-testid="result-download" className={chip}>
          <DownloadIcon />
          {t('studio.result.download')}
        </a>
      </div>
      {save.error && (
        <Alert tone="error" inline>
          {save.error.message}
        </Alert>
      )}
      <div role="group" aria-label={t('studio.result.useAs')} className="flex flex-wrap items-center gap-2">
        <span className="text-xs font-semibold text-zinc-500 dark:text-zinc-400">
          {t('studio.result.useAs')}
        </span>
        {TOOLS.map((tool) => (
          <button
            key={tool}
            type="button"
            data-testid={`use-as-${tool}`}
            onClick={() => onUseAs(tool, image)}
            aria-label={t('studio.result.useAsLabel', { tool: t(`studio.tools.${tool}.name`) })}
            className="rounded-full bg-zinc-100 px-3 py-1 text-xs font-semibold text-zinc-700 hover:bg-brand-100 hover:text-brand-800 dark:bg-zinc-800 dark:text-zinc-300 dark:hover:bg-brand-500/20 dark:hover:text-brand-200"
          >
            {t(`studio.tools.${tool}.name`)}
          </button>
        ))}
      </div>
    </div>
  );
}

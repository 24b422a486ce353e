import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { ImageView } from '@lumina/contracts';
import { paths } from '@/config/paths';

/** Where "Try this prompt" goes: Generate with the prompt and model filled (through sign-in when needed). */
export function tryPromptHref(image: Pick<ImageView, 'prompt' | 'model'>): string {
  const search = new URLSearchParams({ prompt: image.prompt ?? '', model: image.model });
  return `${paths.generate}?${search.toString()}`;
}

/**
 * One public example: the image at its real proportions (width and height set, so nothing shifts as it
 * loads; loaded lazily), its prompt and model, and "Try this prompt".
 */
export function ExampleCard({
  image,
  modelName,
  eager = false,
}: {
  image: ImageView;
  modelName?: string;
  /** The first images above the fold load at once. */
  eager?: boolean;
}) {
  const { t } = useTranslation();
  return (
    <figure
      data-testid="example-card"
      className="mb-4 break-inside-avoid overflow-hidden rounded-2xl border border-zinc-200 bg-white dark:border-zinc-800 dark:bg-zinc-900"
    >
      <a href={image.url} target="_blank" rel="noreferrer" className="block">
        <img
          src={image.thumbnail_url}
          alt={image.prompt ?? t('examples.untitled')}
          width={image.width}
          height={image.height}
          loading={eager ? 'eager' : 'lazy'}
          decoding="async"
          className="h-auto w-full bg-zinc-100 dark:bg-zinc-800"
          style={{ aspectRatio: `${image.width} / ${image.height}` }}
        />
      </a>
      <figcaption className="flex flex-col gap-2 p-3.5">
        <p className="line-clamp-3 text-sm text-zinc-800 dark:text-zinc-200" data-testid="example-prompt">
          {image.prompt}
        </p>
        <div className="flex flex-wrap items-center justify-between gap-2">
          <span className="text-xs text-zinc-600 dark:text-zinc-400" data-testid="example-model">
            {modelName ?? image.model}
            {image.category && (
              <>
                <span aria-hidden="true"> · </span>
                {image.category}
              </>
            )}
          </span>
          <Link
            to={tryPromptHref(image)}
            className="rounded-lg bg-brand-600 px-2.5 py-1.5 text-xs font-semibold text-white hover:bg-brand-700 dark:bg-brand-500 dark:text-zinc-950 dark:hover:bg-brand-400"
          >
            {t('examples.tryPrompt')}
          </Link>
        </div>
      </figcaption>
    </figure>
  );
}

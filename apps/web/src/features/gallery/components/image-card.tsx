import { useTranslation } from 'react-i18next';
import type { ImageView } from '@lumina/contracts';
import { ImageActions, type ImageActionCallbacks } from './image-actions';
import { ToolBadge } from './tool-badge';

/** One thumbnail: opens the lightbox on click; its actions float over the image (always visible on touch). */
export function ImageCard({
  image,
  onOpen,
  ...callbacks
}: { image: ImageView; onOpen: () => void } & ImageActionCallbacks) {
  const { t } = useTranslation();
  const label = image.prompt ?? t('images.untitled');
  return (
    <figure
      data-testid="image-card"
      data-image-id={image.id}
      data-saved={image.is_saved}
      data-favorite={image.is_favorite}
      className="group relative overflow-hidden rounded-2xl bg-zinc-100 ring-1 ring-zinc-200 dark:bg-zinc-800 dark:ring-zinc-800"
    >
      <button
        type="button"
        onClick={onOpen}
        aria-label={t('images.open', { prompt: label })}
        className="block w-full focus-visible:outline-offset-[-2px]"
      >
        <img
          src={image.thumbnail_url}
          alt={label}
          loading="lazy"
          decoding="async"
          width={image.width}
          height={image.height}
          className="aspect-square w-full object-cover transition duration-300 group-hover:scale-[1.03]"
        />
      </button>
      <div className="pointer-events-none absolute top-2 left-2 flex flex-col items-start gap-1">
        {image.is_example && image.category && (
          <span className="rounded-full bg-zinc-950/70 px-2 py-0.5 text-[11px] font-semibold text-white backdrop-blur">
            {image.category}
          </span>
        )}
        <ToolBadge image={image} />
      </div>
      <div
        aria-hidden="true"
        className="pointer-events-none absolute inset-0 bg-gradient-to-b from-zinc-950/35 via-transparent to-zinc-950/45 transition sm:opacity-0 sm:group-focus-within:opacity-100 sm:group-hover:opacity-100"
      />
      <figcaption className="pointer-events-none absolute inset-0 transition sm:opacity-0 sm:group-focus-within:opacity-100 sm:group-hover:opacity-100">
        <ImageActions image={image} variant="overlay" {...callbacks} />
      </figcaption>
    </figure>
  );
}

import { useTranslation } from 'react-i18next';
import type { ImageView } from '@lumina/contracts';
import { ImageActions, type ImageActionCallbacks } from './image-actions';
import { ToolBadge } from './tool-badge';

/** The thumbnail (384 px) for small cards and the full image for large ones: the browser picks by size. */
export function imageSources(image: Pick<ImageView, 'url' | 'thumbnail_url' | 'width' | 'height'>) {
  const longer = Math.max(image.width, image.height);
  const thumbWidth = Math.max(1, Math.round((image.width * Math.min(THUMBNAIL_MAX_SIDE, longer)) / longer));
  return thumbWidth >= image.width
    ? { src: image.thumbnail_url }
    : {
        src: image.thumbnail_url,
        srcSet: `${image.thumbnail_url} ${thumbWidth}w, ${image.url} ${image.width}w`,
      };
}

/** The server's thumbnail size (longer side), see apps/server adapters/media. */
const THUMBNAIL_MAX_SIDE = 384;

/**
 * One image card: opens the lightbox on click; its actions float over the image (always visible on
 * touch). `maxHeight` (a CSS length) shows it at its own proportions, as large as its cell allows up to
 * that height, never cropped; without it the card is the cell's width at the image's proportions.
 */
export function ImageCard({
  image,
  onOpen,
  maxHeight,
  sizes = '(min-width: 1024px) 25vw, 50vw',
  ...callbacks
}: { image: ImageView; onOpen: () => void; maxHeight?: string; sizes?: string } & ImageActionCallbacks) {
  const { t } = useTranslation();
  const label = image.prompt ?? t('images.untitled');
  const ratio = Math.max(1, image.width) / Math.max(1, image.height);
  return (
    <figure
      data-testid="image-card"
      data-image-id={image.id}
      data-saved={image.is_saved}
      data-favorite={image.is_favorite}
      className="group relative mx-auto overflow-hidden rounded-2xl bg-zinc-100 ring-1 ring-zinc-200 dark:bg-zinc-800 dark:ring-zinc-800"
      style={{
        aspectRatio: `${Math.max(1, image.width)} / ${Math.max(1, image.height)}`,
        width: maxHeight ? `min(100%, calc(${maxHeight} * ${ratio.toFixed(4)}))` : '100%',
      }}
    >
      <button
        type="button"
        onClick={onOpen}
        aria-label={t('images.open', { prompt: label })}
        className="block size-full focus-visible:outline-offset-[-2px]"
      >
        <img
          {...imageSources(image)}
          sizes={sizes}
          alt={label}
          loading="lazy"
          decoding="async"
          width={image.width}
          height={image.height}
          data-testid="image-card-img"
          className="size-full object-cover transition duration-300 group-hover:scale-[1.03]"
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

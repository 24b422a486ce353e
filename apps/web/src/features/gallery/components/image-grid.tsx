import { useState, type ReactNode } from 'react';
import type { ImageView } from '@lumina/contracts';
import { ImageCard } from './image-card';
import { Lightbox } from './lightbox';
import type { OpenInStudio } from '../utils/tool-output';
import type { ImageActionCallbacks } from './image-actions';

export interface ImageGridProps extends ImageActionCallbacks {
  images: readonly ImageView[];
  /** Grey tiles for images that are still being made. */
  placeholders?: number;
  modelName?: (id: string) => string | undefined;
  onUseSeed?: (seed: number) => void;
  onOpenInStudio?: OpenInStudio;
  /**
   * 'batch': one job's 1–4 results, large and at their own proportions (one per row for a single image,
   * two across for more). 'masonry' (default): a gallery of any length in columns, each image at its
   * own proportions.
   */
  layout?: 'batch' | 'masonry';
  children?: ReactNode;
}

/** For a batch of n: the grid's columns and the tallest an image may be (so the batch fits the screen). */
export function batchLayout(n: number): { cols: string; maxHeight: string; sizes: string } {
  if (n <= 1) return { cols: 'grid-cols-1', maxHeight: '70vh', sizes: '(min-width: 1024px) 60vw, 100vw' };
  if (n === 2) return { cols: 'grid-cols-2', maxHeight: '60vh', sizes: '(min-width: 1024px) 30vw, 50vw' };
  if (n === 3)
    return { cols: 'grid-cols-2 sm:grid-cols-3', maxHeight: '45vh', sizes: '(min-width: 1024px) 20vw, 50vw' };
  return { cols: 'grid-cols-2', maxHeight: '38vh', sizes: '(min-width: 1024px) 30vw, 50vw' };
}

/** A responsive grid of thumbnails sharing one lightbox. */
export function ImageGrid({
  images,
  placeholders = 0,
  modelName,
  onUseSeed,
  onOpenInStudio,
  layout = 'masonry',
  children,
  ...callbacks
}: ImageGridProps) {
  const [open, setOpen] = useState<number | null>(null);
  const batch = layout === 'batch' ? batchLayout(images.length + placeholders) : null;
  const pending = Array.from({ length: placeholders }, (_, i) => (
    <li key={`pending-${i}`} aria-hidden="true" className={batch ? '' : 'mb-2 break-inside-avoid sm:mb-3'}>
      <div
        className="mx-auto aspect-square animate-pulse rounded-2xl bg-gradient-to-br from-zinc-200 to-zinc-100 dark:from-zinc-800 dark:to-zinc-900"
        style={batch ? { width: `min(100%, ${batch.maxHeight})` } : undefined}
      />
    </li>
  ));
  return (
    <>
      <ul
        className={
          batch
            ? `grid items-start gap-2 sm:gap-3 ${batch.cols}`
            : 'columns-2 gap-2 sm:columns-3 sm:gap-3 lg:columns-4'
        }
        data-testid="image-grid"
        data-layout={layout}
      >
        {images.map((image, index) => (
          <li key={image.id} className={batch ? 'min-w-0' : 'mb-2 break-inside-avoid sm:mb-3'}>
            <ImageCard
              image={image}
              onOpen={() => setOpen(index)}
              maxHeight={batch?.maxHeight}
              sizes={batch?.sizes}
              {...callbacks}
            />
          </li>
        ))}
        {pending}
      </ul>
      {children}
      <Lightbox
        images={images}
        index={open !== null && open < images.length ? open : null}
        onIndexChange={setOpen}
        onClose={() => setOpen(null)}
        modelName={modelName}
        onUseSeed={onUseSeed}
        onOpenInStudio={onOpenInStudio}
        {...callbacks}
        onDeleted={(image) => {
          setOpen(null);
          callbacks.onDeleted?.(image);
        }}
      />
    </>
  );
}

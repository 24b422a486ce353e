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
  dense?: boolean;
  children?: ReactNode;
}

/** A responsive grid of thumbnails sharing one lightbox. */
export function ImageGrid({
  images,
  placeholders = 0,
  modelName,
  onUseSeed,
  onOpenInStudio,
  dense,
  children,
  ...callbacks
}: ImageGridProps) {
  const [open, setOpen] = useState<number | null>(null);
  const cols = dense ? 'grid-cols-2 sm:grid-cols-4' : 'grid-cols-2 sm:grid-cols-3 lg:grid-cols-4';
  return (
    <>
      <ul className={`grid gap-2 sm:gap-3 ${cols}`} data-testid="image-grid">
        {images.map((image, index) => (
          <li key={image.id}>
            <ImageCard image={image} onOpen={() => setOpen(index)} {...callbacks} />
          </li>
        ))}
        {Array.from({ length: placeholders }, (_, i) => (
          <li key={`pending-${i}`} aria-hidden="true">
            <div className="aspect-square animate-pulse rounded-2xl bg-gradient-to-br from-zinc-200 to-zinc-100 dark:from-zinc-800 dark:to-zinc-900" />
          </li>
        ))}
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

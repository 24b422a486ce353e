import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { ImageView } from '@lumina/contracts';
import {
  BookmarkIcon,
  DownloadIcon,
  GlobeIcon,
  HeartIcon,
  RemixIcon,
  TrashIcon,
} from '@/components/ui/icons';
import { useSaveImage, useToggleFavorite } from '@/lib/images/image-mutations';
import { useUnpublishExample } from '../api/publish-example';
import { downloadImage } from '../api/track-download';
import { ConfirmDeleteDialog, PublishDialog } from './image-dialogs';

export interface ImageActionCallbacks {
  /** Fills the Generate form with this image's recipe (the page decides where that lives). */
  onRemix?: (image: ImageView) => void;
  onDeleted?: (image: ImageView) => void;
}

type Variant = 'overlay' | 'full';

function ActionButton({
  label,
  onClick,
  pressed,
  disabled,
  variant,
  tone = 'default',
  children,
  testId,
}: {
  label: string;
  onClick: () => void;
  pressed?: boolean;
  disabled?: boolean;
  variant: Variant;
  tone?: 'default' | 'danger' | 'active';
  children: ReactNode;
  testId: string;
}) {
  const toneClass =
    tone === 'danger'
      ? 'hover:text-red-600 dark:hover:text-red-400'
      : tone === 'active'
        ? 'text-brand-600 dark:text-brand-300'
        : '';
  // On a card the buttons are icons over the image (named by aria-label, and a click must not open the
  // card); in the lightbox they are labelled buttons.
  const overlay = variant === 'overlay';
  return (
    <button
      type="button"
      aria-label={overlay ? label : undefined}
      title={overlay ? label : undefined}
      aria-pressed={pressed}
      disabled={disabled}
      data-testid={testId}
      onClick={(e) => {
        if (overlay) e.stopPropagation();
        onClick();
      }}
      className={
        overlay
          ? `inline-flex size-8 items-center justify-center rounded-full bg-white/90 text-base text-zinc-800 shadow-sm backdrop-blur transition hover:bg-white disabled:cursor-default disabled:opacity-90 dark:bg-zinc-900/85 dark:text-zinc-100 dark:hover:bg-zinc-900 ${toneClass}`
          : `inline-flex items-center gap-2 rounded-xl border border-zinc-200 px-3 py-2 text-sm font-semibold transition hover:bg-zinc-100 disabled:cursor-default disabled:opacity-80 dark:border-zinc-700 dark:hover:bg-zinc-800 ${toneClass}`
      }
    >
      {overlay ? (
        children
      ) : (
        <>
          <span className="text-base">{children}</span>
          {label}
        </>
      )}
    </button>
  );
}

/** Save, favourite, download, remix, publish and delete for one image; what shows depends on ownership. */
export function ImageActions({
  image,
  variant,
  onRemix,
  onDeleted,
}: { image: ImageView; variant: Variant } & ImageActionCallbacks) {
  const { t } = useTranslation();
  const save = useSaveImage();
  const favorite = useToggleFavorite();
  const unpublish = useUnpublishExample();
  const [dialog, setDialog] = useState<'delete' | 'publish' | null>(null);
  const [downloading, setDownloading] = useState(false);
  const error = save.error ?? favorite.error ?? unpublish.error;

  const favoriteButton = (
    <ActionButton
      variant={variant}
      testId="action-favorite"
      label={image.is_favorite ? t('images.actions.unfavorite') : t('images.actions.favorite')}
      pressed={image.is_favorite}
      tone={image.is_favorite ? 'active' : 'default'}
      onClick={() => favorite.mutate({ id: image.id, favorite: !image.is_favorite })}
    >
      <HeartIcon filled={image.is_favorite} className={image.is_favorite ? 'text-rose-500' : ''} />
    </ActionButton>
  );
  const saveButton = image.is_own && (
    <ActionButton
      variant={variant}
      testId="action-save"
      label={image.is_saved ? t('images.actions.unsave') : t('images.actions.save')}
      pressed={image.is_saved}
      disabled={save.isPending}
      tone={image.is_saved ? 'active' : 'default'}
      onClick={() => save.mutate({ id: image.id, saved: !image.is_saved })}
    >
      <BookmarkIcon filled={image.is_saved} />
    </ActionButton>
  );
  const downloadButton = (
    <ActionButton
      variant={variant}
      testId="action-download"
      label={t('images.actions.download')}
      disabled={downloading}
      onClick={() => {
        setDownloading(true);
        void downloadImage(image).finally(() => setDownloading(false));
      }}
    >
      <DownloadIcon />
    </ActionButton>
  );
  const remixButton = onRemix && (
    <ActionButton
      variant={variant}
      testId="action-remix"
      label={t('images.actions.remix')}
      onClick={() => onRemix(image)}
    >
      <RemixIcon />
    </ActionButton>
  );
  const publishButton = image.is_own && variant === 'full' && (
    <ActionButton
      variant={variant}
      testId={image.is_example ? 'action-unpublish' : 'action-publish'}
      label={image.is_example ? t('images.actions.unpublish') : t('images.actions.publish')}
      disabled={unpublish.isPending}
      onClick={() => (image.is_example ? unpublish.mutate(image.id) : setDialog('publish'))}
    >
      <GlobeIcon />
    </ActionButton>
  );
  const deleteButton = image.is_own && (
    <ActionButton
      variant={variant}
      testId="action-delete"
      label={t('images.actions.delete')}
      tone="danger"
      onClick={() => setDialog('delete')}
    >
      <TrashIcon />
    </ActionButton>
  );

  return (
    <>
      {variant === 'overlay' ? (
        <>
          {/* Keeps the middle of the tile free for opening the lightbox, even on small tiles. */}
          <div className="pointer-events-auto absolute top-2 right-2 flex gap-1">
            {favoriteButton}
            {saveButton}
          </div>
          <div className="pointer-events-auto absolute right-2 bottom-2 flex gap-1">
            {downloadButton}
            {remixButton}
            {deleteButton}
          </div>
        </>
      ) : (
        <div className="flex flex-wrap items-center gap-2">
          {favoriteButton}
          {saveButton}
          {downloadButton}
          {remixButton}
          {publishButton}
          {deleteButton}
        </div>
      )}
      {error && (
        <p
          role="alert"
          className={`text-xs ${variant === 'overlay' ? 'pointer-events-auto absolute inset-x-2 top-12 rounded-lg bg-red-600 px-2 py-1 text-white shadow' : 'mt-2 text-red-600 dark:text-red-400'}`}
        >
          {error.message}
        </p>
      )}
      {dialog === 'delete' && (
        <ConfirmDeleteDialog image={image} open onClose={() => setDialog(null)} onDeleted={onDeleted} />
      )}
      {dialog === 'publish' && <PublishDialog image={image} open onClose={() => setDialog(null)} />}
    </>
  );
}

import { useId, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ImageView } from '@lumina/contracts';
import { Modal } from '@/components/ui/modal';
import { CloseIcon } from '@/components/ui/icons';
import { LoadingBlock, QueryError } from '@/components/ui/query-states';
import { Spinner } from '@/components/ui/spinner';
import { usePickerImages, type PickerSource } from '../api/list-images';

const SOURCES: readonly PickerSource[] = ['images', 'uploads'];

/** "Choose from gallery": the user's images and their uploads, one click to use one as a tool's input. */
export function GalleryPicker({
  open,
  title,
  onClose,
  onPick,
}: {
  open: boolean;
  /** What the image is for, e.g. "Image to upscale". */
  title: string;
  onClose: () => void;
  onPick: (image: ImageView) => void;
}) {
  const { t } = useTranslation();
  const ids = useId();
  const [source, setSource] = useState<PickerSource>('images');
  return (
    <Modal open={open} onClose={onClose} labelledBy={`${ids}-title`} className="max-w-3xl">
      <div className="flex flex-col gap-4 p-5 sm:p-6" data-testid="gallery-picker">
        <div className="flex items-start justify-between gap-3">
          <div>
            <h2 id={`${ids}-title`} className="text-lg font-semibold">
              {t('studio.picker.title')}
            </h2>
            <p className="text-sm text-zinc-600 dark:text-zinc-400">{title}</p>
          </div>
          <button
            type="button"
            onClick={onClose}
            aria-label={t('studio.picker.close')}
            className="inline-flex size-9 items-center justify-center rounded-full text-zinc-500 hover:bg-zinc-100 hover:text-zinc-900 dark:hover:bg-zinc-800 dark:hover:text-white"
          >
            <CloseIcon />
          </button>
        </div>
        <div role="tablist" aria-label={t('studio.picker.sources')} className="flex gap-1">
          {SOURCES.map((item) => (
            <button
              key={item}
              type="button"
              role="tab"
              id={`${ids}-tab-${item}`}
              aria-selected={item === source}
              aria-controls={`${ids}-panel`}
              data-autofocus={item === source ? '' : undefined}
              onClick={() => setSource(item)}
              className={`rounded-xl px-4 py-2 text-sm font-semibold transition ${
                item === source
                  ? 'bg-zinc-900 text-white dark:bg-white dark:text-zinc-900'
                  : 'text-zinc-600 hover:bg-zinc-100 hover:text-zinc-900 dark:text-zinc-400 dark:hover:bg-zinc-800 dark:hover:text-white'
              }`}
            >
              {t(`studio.picker.${item}`)}
            </button>
          ))}
        </div>
        <div role="tabpanel" id={`${ids}-panel`} aria-labelledby={`${ids}-tab-${source}`}>
          <PickerGrid source={source} enabled={open} onPick={onPick} />
        </div>
      </div>
    </Modal>
  );
}

function PickerGrid({
  source,
  enabled,
  onPick,
}: {
  source: PickerSource;
  enabled: boolean;
  onPick: (image: ImageView) => void;
}) {
  const { t } = useTranslation();
  const query = usePickerImages(source, enabled);
  const images = useMemo(() => query.data?.pages.flatMap((page) => page.items) ?? [], [query.data]);

  if (query.isPending) return <LoadingBlock className="py-16" />;
  if (query.isError) return <QueryError compact error={query.error} onRetry={() => void query.refetch()} />;
  if (images.length === 0)
    return (
      <p className="rounded-2xl border border-dashed border-zinc-300 px-6 py-12 text-center text-sm text-zinc-600 dark:border-zinc-700 dark:text-zinc-400">
        {t(`studio.picker.empty.${source}`)}
      </p>
    );
  return (
    <div className="flex flex-col gap-4">
      <ul className="grid grid-cols-3 gap-2 sm:grid-cols-4 md:grid-cols-5">
        {images.map((image) => {
          const name = image.prompt ?? t('studio.picker.untitled');
          return (
            <li key={image.id}>
              <button
                type="button"
                onClick={() => onPick(image)}
                data-testid="picker-image"
                data-image-id={image.id}
                aria-label={t('studio.picker.choose', { name })}
                title={name}
                className="block w-full overflow-hidden rounded-xl bg-zinc-100 ring-1 ring-zinc-200 transition hover:ring-2 hover:ring-brand-500 dark:bg-zinc-800 dark:ring-zinc-800"
              >
                <img
                  src={image.thumbnail_url}
                  alt=""
                  loading="lazy"
                  decoding="async"
                  className="aspect-square w-full object-cover"
                />
              </button>
            </li>
          );
        })}
      </ul>
      {query.hasNextPage && (
        <button
          type="button"
          disabled={query.isFetchingNextPage}
          onClick={() => void query.fetchNextPage()}
          className="self-center rounded-xl border border-zinc-300 px-4 py-2 text-sm font-semibold hover:bg-zinc-100 disabled:opacity-60 dark:border-zinc-700 dark:hover:bg-zinc-800"
        >
          {query.isFetchingNextPage ? <Spinner className="size-4" /> : t('studio.picker.loadMore')}
        </button>
      )}
    </div>
  );
}

import { useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { PurchaseView } from '@lumina/contracts';
import { paths } from '@/config/paths';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { useAttachPhotos, usePendingImageSets, useUploadPhotoSet } from '../api/photo-sets';
import { Link } from 'react-router';

/**
 * A photo shoot waiting for photos: pick one of the caller's photo sets not used yet, or upload new
 * photos (checked like training photos), then start it. Training begins as soon as the set is attached.
 */
export function AttachPhotos({ purchase }: { purchase: PurchaseView }) {
  const { t, i18n } = useTranslation();
  const sets = usePendingImageSets();
  const upload = useUploadPhotoSet();
  const attach = useAttachPhotos();
  const [chosen, setChosen] = useState<string | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const groupId = useId();
  const date = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'short' });
  const list = sets.data?.sets ?? [];
  const selected = chosen ?? (list.length === 1 ? list[0]!.id : null);

  const onFiles = (files: FileList | null) => {
    if (!files || files.length === 0) return;
    upload.mutate([...files], { onSuccess: (set) => setChosen(set.id) });
  };

  return (
    <section
      aria-labelledby={`${groupId}-title`}
      data-testid="attach-photos"
      className="flex flex-col gap-3 rounded-2xl border border-dashed border-zinc-300 p-4 dark:border-zinc-700"
    >
      <h3 id={`${groupId}-title`} className="text-sm font-semibold">
        {t('products.attach.title')}
      </h3>
      {sets.isPending ? (
        <Spinner />
      ) : sets.isError ? (
        <Alert tone="error" inline>
          {sets.error.message}
        </Alert>
      ) : list.length === 0 ? (
        <p className="text-sm text-zinc-600 dark:text-zinc-400">{t('products.attach.none')}</p>
      ) : (
        <fieldset className="flex flex-col gap-2">
          <legend className="sr-only">{t('products.attach.choose')}</legend>
          {list.map((set) => (
            <label
              key={set.id}
              data-testid="pending-set"
              className="flex min-w-0 cursor-pointer items-center gap-3 rounded-xl border border-zinc-200 p-2 has-[:checked]:border-brand-500 has-[:checked]:ring-1 has-[:checked]:ring-brand-500 dark:border-zinc-700"
            >
              <input
                type="radio"
                name={`${groupId}-set`}
                value={set.id}
                checked={selected === set.id}
                onChange={() => setChosen(set.id)}
                className="shrink-0"
              />
              <span className="flex shrink-0 -space-x-2" aria-hidden="true">
                {set.photos.slice(0, 4).map((photo) => (
                  <img
                    key={photo.id}
                    src={photo.thumbnail_url}
                    alt=""
                    className="size-9 rounded-lg object-cover ring-2 ring-white dark:ring-zinc-900"
                  />
                ))}
              </span>
              <span className="min-w-0 text-sm">
                {t('products.attach.set', {
                  count: set.photos.length,
                  date: date.format(new Date(set.created_at)),
                })}
              </span>
            </label>
          ))}
        </fieldset>
      )}
      <div className="flex flex-wrap items-center gap-2">
        {list.length > 0 && (
          <Button
            onClick={() => selected && attach.mutate({ purchaseId: purchase.id, setId: selected })}
            disabled={!selected || attach.isPending || upload.isPending}
            data-testid="attach-start"
          >
            {attach.isPending ? t('products.attach.starting') : t('products.attach.start')}
          </Button>
        )}
        <Button
          look="outline"
          onClick={() => fileInput.current?.click()}
          disabled={upload.isPending || attach.isPending}
        >
          {upload.isPending ? t('products.attach.uploading') : t('products.attach.upload')}
        </Button>
        <input
          ref={fileInput}
          type="file"
          accept="image/jpeg,image/png,image/webp,application/zip"
          multiple
          hidden
          data-testid="attach-files"
          aria-label={t('products.attach.upload')}
          onChange={(event) => {
            onFiles(event.currentTarget.files);
            event.currentTarget.value = '';
          }}
        />
        <Link
          to={paths.training}
          className="text-sm font-medium text-brand-700 underline dark:text-brand-300"
        >
          {t('products.attach.training')}
        </Link>
      </div>
      {upload.data && upload.data.refused.length > 0 && (
        <Alert tone="warning" inline testId="attach-refused">
          {t('products.attach.refused', { count: upload.data.refused.length })}{' '}
          {upload.data.refused.map((r) => `${r.filename}: ${r.reason}`).join('; ')}
        </Alert>
      )}
      {(upload.error ?? attach.error) && (
        <Alert tone="error" inline testId="attach-error">
          {(upload.error ?? attach.error)!.message}
        </Alert>
      )}
    </section>
  );
}

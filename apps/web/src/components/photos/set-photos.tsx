import { useTranslation } from 'react-i18next';
import type { RefusedPhoto, TrainingPhoto } from '@lumina/contracts';
import { Button } from '@/components/ui/button';
import { AlertIcon, TrashIcon } from '@/components/ui/icons';

/** The files the server refused in the last upload, each with its reason. */
export function RefusedFiles({ refused }: { refused: readonly RefusedPhoto[] }) {
  const { t } = useTranslation();
  if (refused.length === 0) return null;
  return (
    <div
      role="alert"
      data-testid="training-refused"
      className="rounded-2xl bg-amber-50 px-4 py-3 text-sm text-amber-900 ring-1 ring-amber-200 ring-inset dark:bg-amber-500/10 dark:text-amber-100 dark:ring-amber-500/30"
    >
      <p className="flex items-center gap-2 font-semibold">
        <AlertIcon className="size-4 shrink-0" />
        {t('training.upload.refused', { count: refused.length })}
      </p>
      <ul className="mt-2 flex flex-col gap-1">
        {refused.map((r, i) => (
          <li key={`${r.filename}-${i}`} data-testid="refused-file">
            <span className="font-medium break-all">{r.filename}</span>: {r.reason}
          </li>
        ))}
      </ul>
    </div>
  );
}

/**
 * The photos the set holds, as the server stored them: thumbnail, size, its advice, and Remove (when
 * `onRemove` is given: onboarding's sets are kept whole until bought, so it shows them without).
 */
export function SetPhotos({
  photos,
  removing,
  onRemove,
}: {
  photos: readonly TrainingPhoto[];
  /** The photo being removed, if any (its button waits). */
  removing?: string | null;
  onRemove?: (photo: TrainingPhoto) => void;
}) {
  const { t } = useTranslation();
  return (
    <ul
      aria-label={t('training.upload.setLabel')}
      data-testid="training-set"
      className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-4"
    >
      {photos.map((photo) => (
        <li
          key={photo.id}
          data-testid="set-photo"
          className="flex flex-col overflow-hidden rounded-2xl border border-zinc-200 bg-white dark:border-zinc-800 dark:bg-zinc-900"
        >
          <div className="relative aspect-square bg-zinc-100 dark:bg-zinc-800">
            <img
              src={photo.thumbnail_url}
              alt={t('training.upload.photoAlt', { name: photo.filename })}
              className="size-full object-cover"
              loading="lazy"
            />
            {onRemove && (
              <Button
                look="icon"
                onClick={() => onRemove(photo)}
                disabled={removing === photo.id}
                aria-label={t('training.upload.removePhoto', { name: photo.filename })}
                className="absolute top-1.5 right-1.5 bg-white/90 dark:bg-zinc-900/90"
              >
                <TrashIcon />
              </Button>
            )}
          </div>
          <div className="flex flex-col gap-0.5 p-2 text-xs">
            <span className="truncate font-medium" title={photo.filename}>
              {photo.filename}
            </span>
            <span className="text-zinc-500 tabular-nums dark:text-zinc-400">
              {t('training.upload.size', { width: photo.width, height: photo.height })}
            </span>
            {photo.hints.map((hint) => (
              <span key={hint} className="text-amber-700 dark:text-amber-300" data-testid="photo-hint">
                {hint}
              </span>
            ))}
          </div>
        </li>
      ))}
    </ul>
  );
}

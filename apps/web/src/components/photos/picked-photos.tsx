import { useTranslation } from 'react-i18next';
import { TRAINING_MIN_SIDE } from '@lumina/contracts';
import { Button } from '@/components/ui/button';
import { CloseIcon, DocumentIcon } from '@/components/ui/icons';
import type { PickedFile } from '@/lib/photos/photo-checks';

/**
 * The files picked but not yet sent: a preview of each photo with what the browser could tell about it
 * (too small, picked twice, not a photo), a zip as its name, and a button to take any of them out.
 */
export function PickedPhotos({
  picked,
  onRemove,
  onMeasured,
}: {
  picked: readonly PickedFile[];
  onRemove: (key: string) => void;
  onMeasured: (key: string, size: { width: number; height: number }) => void;
}) {
  const { t } = useTranslation();
  if (picked.length === 0) return null;
  return (
    <ul
      aria-label={t('training.upload.pickedLabel')}
      data-testid="training-picked"
      className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-4"
    >
      {picked.map((p) => (
        <li
          key={p.key}
          data-testid="picked-photo"
          data-problem={p.problem ?? 'none'}
          className={`flex flex-col overflow-hidden rounded-2xl border bg-white dark:bg-zinc-900 ${
            p.problem ? 'border-amber-300 dark:border-amber-500/50' : 'border-zinc-200 dark:border-zinc-800'
          }`}
        >
          <div className="relative flex aspect-square items-center justify-center bg-zinc-100 dark:bg-zinc-800">
            {p.previewUrl ? (
              <img
                src={p.previewUrl}
                alt={t('training.upload.previewAlt', { name: p.file.name })}
                className="size-full object-cover"
                onLoad={(e) =>
                  onMeasured(p.key, {
                    width: e.currentTarget.naturalWidth,
                    height: e.currentTarget.naturalHeight,
                  })
                }
              />
            ) : (
              <DocumentIcon className="text-3xl text-zinc-400" />
            )}
            <Button
              look="icon"
              onClick={() => onRemove(p.key)}
              aria-label={t('training.upload.removePicked', { name: p.file.name })}
              className="absolute top-1.5 right-1.5 bg-white/90 dark:bg-zinc-900/90"
            >
              <CloseIcon />
            </Button>
          </div>
          <div className="flex flex-col gap-0.5 p-2 text-xs">
            <span className="truncate font-medium" title={p.file.name}>
              {p.file.name}
            </span>
            {p.kind === 'zip' && (
              <span className="text-zinc-500 dark:text-zinc-400">{t('training.upload.zip')}</span>
            )}
            {p.size && (
              <span className="text-zinc-500 tabular-nums dark:text-zinc-400">
                {t('training.upload.size', p.size)}
              </span>
            )}
            {p.problem && (
              <span className="text-amber-700 dark:text-amber-300" data-testid="picked-problem">
                {t(`training.upload.problems.${p.problem}`, { side: TRAINING_MIN_SIDE })}
              </span>
            )}
          </div>
        </li>
      ))}
    </ul>
  );
}

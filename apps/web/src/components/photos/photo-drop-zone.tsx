import { useId, useState, type DragEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { TRAINING_MAX_PHOTOS, TRAINING_MIN_PHOTOS, TRAINING_MIN_SIDE } from '@lumina/contracts';
import { ImagesIcon } from '@/components/ui/icons';

const ACCEPT = 'image/*,.heic,.heif,.avif,.zip,application/zip';

/**
 * Where photos arrive: dropped anywhere on the zone, or chosen with the file button (a real, focusable
 * file input behind a label, so the keyboard and screen readers reach it). Several photos or one zip.
 */
export function PhotoDropZone({
  onFiles,
  disabled,
  more,
}: {
  onFiles: (files: File[]) => void;
  disabled?: boolean;
  /** The set already has photos: the zone offers to add more. */
  more: boolean;
}) {
  const { t } = useTranslation();
  const id = useId();
  const [dragging, setDragging] = useState(false);

  function onDrop(event: DragEvent) {
    event.preventDefault();
    setDragging(false);
    if (disabled) return;
    const files = [...event.dataTransfer.files];
    if (files.length) onFiles(files);
  }

  return (
    <div
      data-testid="training-drop"
      data-dragging={dragging}
      onDragOver={(e) => {
        e.preventDefault();
        e.dataTransfer.dropEffect = 'copy';
        if (!dragging) setDragging(true);
      }}
      onDragLeave={(e) => {
        if (!e.currentTarget.contains(e.relatedTarget as Node | null)) setDragging(false);
      }}
      onDrop={onDrop}
      className={`flex flex-col items-center gap-3 rounded-2xl border-2 border-dashed px-4 py-8 text-center transition ${
        dragging
          ? 'border-brand-500 bg-brand-50/70 dark:border-brand-400 dark:bg-brand-500/10'
          : 'border-zinc-300 dark:border-zinc-700'
      }`}
    >
      <span className="flex size-12 items-center justify-center rounded-2xl bg-brand-100 text-2xl text-brand-700 dark:bg-brand-500/15 dark:text-brand-300">
        <ImagesIcon />
      </span>
      <p className="text-sm text-zinc-600 dark:text-zinc-400">{t('training.upload.drop')}</p>
      <label
        htmlFor={`${id}-files`}
        className={`relative inline-flex cursor-pointer items-center gap-2 rounded-xl border border-zinc-300 bg-white px-4 py-2.5 text-sm font-semibold hover:bg-zinc-100 has-focus-visible:outline-2 has-focus-visible:outline-brand-500 dark:border-zinc-700 dark:bg-zinc-900 dark:hover:bg-zinc-800 ${
          disabled ? 'pointer-events-none opacity-50' : ''
        }`}
      >
        {more ? t('training.upload.chooseMore') : t('training.upload.choose')}
        <input
          id={`${id}-files`}
          type="file"
          multiple
          accept={ACCEPT}
          disabled={disabled}
          className="sr-only"
          data-testid="training-files"
          aria-describedby={`${id}-hint`}
          onChange={(e) => {
            const files = [...(e.target.files ?? [])];
            e.target.value = '';
            if (files.length) onFiles(files);
          }}
        />
      </label>
      <p id={`${id}-hint`} className="max-w-md text-xs text-zinc-500 dark:text-zinc-400">
        {t('training.upload.hint', {
          min: TRAINING_MIN_PHOTOS,
          max: TRAINING_MAX_PHOTOS,
          side: TRAINING_MIN_SIDE,
        })}
      </p>
    </div>
  );
}

import { useId, useRef, useState, type DragEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { CloseIcon, ImagesIcon } from '@/components/ui/icons';
import { Spinner } from '@/components/ui/spinner';
import { pickFile, studioStore, useStudio } from '../stores/studio-store';
import { inputSize, inputUrl, type InputSlot } from '../utils/inputs';
import {
  ACCEPTED_FILES,
  checkFile,
  formatBytes,
  imageType,
  sniffFile,
  type FileProblem,
} from '../utils/file-input';

/**
 * An image input shared by every tool: drop a file, click to pick one, or choose from the gallery. Shows a
 * preview (through the server for types the browser cannot show), the name and size, and why a file is
 * refused before anything is sent.
 */
export function ImageInput({
  slot,
  maxBytes,
  maxPixels,
  onChooseFromGallery,
  compact = false,
}: {
  slot: InputSlot;
  /** The server's upload limit (GET /api/tools). */
  maxBytes: number;
  /** The server's pixel limit: a picture over it is refused once its preview shows its size. */
  maxPixels?: number;
  onChooseFromGallery: () => void;
  compact?: boolean;
}) {
  const { t } = useTranslation();
  const ids = useId();
  const input = useStudio((s) => s.inputs[slot]);
  const [problem, setProblem] = useState<string | null>(null);
  const [dragging, setDragging] = useState(false);
  const label = t(`studio.input.${slot}`);

  function describe(issue: FileProblem): string {
    if (issue.kind === 'tooLarge')
      return t('studio.input.problems.tooLarge', {
        size: formatBytes(issue.size),
        limit: formatBytes(issue.limit),
      });
    return t(`studio.input.problems.${issue.kind}`);
  }

  const latest = useRef(0);

  /**
   * Checks a dropped or chosen file where it was dropped: size and name first, then its first bytes
   * (a text file renamed .png is refused here, with the reason under the drop zone, before anything
   * is sent). A later file wins over one still being checked.
   */
  async function take(files: FileList | null | undefined) {
    const file = files?.[0];
    if (!file) return;
    const several = files.length > 1;
    const ticket = ++latest.current;
    const issue = checkFile(file, maxBytes);
    if (issue) {
      setProblem(describe(issue));
      return;
    }
    const sniffed = await sniffFile(file);
    if (latest.current !== ticket) return;
    if (!sniffed) {
      const named = imageType(file)?.split('/')[1]?.toUpperCase();
      setProblem(
        named
          ? t('studio.input.problems.mismatch', { named: named === 'JPEG' ? 'JPEG' : named })
          : t('studio.input.problems.notImage'),
      );
      // The file is refused: nothing from it stays in the slot.
      if (studioStore.getState().inputs[slot]?.source === 'file') studioStore.getState().setInput(slot, null);
      return;
    }
    setProblem(several ? t('studio.input.problems.several') : null);
    pickFile(slot, file, undefined, sniffed);
  }

  function onDrop(event: DragEvent) {
    event.preventDefault();
    setDragging(false);
    void take(event.dataTransfer.files);
  }

  const url = inputUrl(input);
  const size = inputSize(input);
  const name =
    input?.source === 'file' ? input.file.name : (input?.image.prompt ?? t('studio.input.fromYourGallery'));
  const fileInput = (
    <input
      id={`${ids}-file`}
      type="file"
      accept={ACCEPTED_FILES}
      className="sr-only"
      data-testid={`input-file-${slot}`}
      aria-describedby={`${ids}-hint${problem ? ` ${ids}-problem` : ''}`}
      onChange={(e) => {
        void take(e.target.files);
        e.target.value = '';
      }}
    />
  );

  return (
    <div data-testid={`image-input-${slot}`} data-filled={Boolean(input)}>
      <p id={`${ids}-label`} className="mb-2 text-sm font-semibold">
        {label}
      </p>
      <div
        onDragOver={(e) => {
          e.preventDefault();
          e.dataTransfer.dropEffect = 'copy';
          if (!dragging) setDragging(true);
        }}
        onDragLeave={(e) => {
          if (!e.currentTarget.contains(e.relatedTarget as Node | null)) setDragging(false);
        }}
        onDrop={onDrop}
        className={`rounded-2xl border-2 border-dashed transition ${
          dragging
            ? 'border-brand-500 bg-brand-50/70 dark:border-brand-400 dark:bg-brand-500/10'
            : 'border-zinc-300 dark:border-zinc-700'
        }`}
      >
        {!input ? (
          <div className={`flex flex-col items-center gap-3 px-4 text-center ${compact ? 'py-4' : 'py-6'}`}>
            <label
              htmlFor={`${ids}-file`}
              data-testid={`input-drop-${slot}`}
              className="relative flex w-full cursor-pointer flex-col items-center gap-2 rounded-xl px-2 py-2 hover:bg-zinc-50 has-focus-visible:outline-2 has-focus-visible:outline-brand-500 dark:hover:bg-zinc-800/60"
            >
              <span className="flex size-10 items-center justify-center rounded-xl bg-brand-100 text-xl text-brand-700 dark:bg-brand-500/15 dark:text-brand-300">
                <ImagesIcon />
              </span>
              <span className="text-sm text-zinc-600 dark:text-zinc-400">
                {t('studio.input.drop')}{' '}
                <span className="font-semibold text-brand-700 underline underline-offset-2 dark:text-brand-300">
                  {t('studio.input.browse')}
                </span>
                <span className="sr-only"> ({label})</span>
              </span>
              {fileInput}
            </label>
            <FromGalleryButton
              label={label}
              onClick={onChooseFromGallery}
              className="rounded-xl px-3 py-1.5 text-sm"
            />
            <p id={`${ids}-hint`} className="text-xs text-zinc-500 dark:text-zinc-400">
              {t('studio.input.types', { limit: formatBytes(maxBytes) })}
            </p>
          </div>
        ) : (
          <div className="flex gap-3 p-3">
            <div className="flex size-24 shrink-0 items-center justify-center overflow-hidden rounded-xl bg-zinc-100 sm:size-28 dark:bg-zinc-800">
              {url ? (
                <img
                  src={url}
                  alt={t('studio.input.previewAlt', { name })}
                  data-testid={`input-preview-${slot}`}
                  className="size-full object-contain"
                  onLoad={(e) => {
                    if (input.source !== 'file') return;
                    const img = e.currentTarget;
                    if (maxPixels && img.naturalWidth * img.naturalHeight > maxPixels) {
                      setProblem(
                        t('studio.input.problems.tooManyPixels', {
                          width: img.naturalWidth,
                          height: img.naturalHeight,
                          limit: Math.floor(maxPixels / 1_000_000),
                        }),
                      );
                      studioStore.getState().setInput(slot, null);
                      return;
                    }
                    studioStore.getState().patchFileInput(slot, input.key, {
                      width: img.naturalWidth,
                      height: img.naturalHeight,
                    });
                  }}
                />
              ) : input.source === 'file' && input.preview.status === 'converting' ? (
                <span role="status" aria-label={t('studio.input.converting')}>
                  <Spinner />
                </span>
              ) : (
                <ImagesIcon className="text-2xl text-zinc-400" />
              )}
            </div>
            <div className="flex min-w-0 flex-1 flex-col gap-1">
              <p className="truncate text-sm font-medium" title={name}>
                {name}
              </p>
              <p
                className="text-xs text-zinc-500 tabular-nums dark:text-zinc-400"
                data-testid={`input-meta-${slot}`}
              >
                {[
                  input.source === 'file' ? formatBytes(input.file.size) : t('studio.input.fromYourGallery'),
                  size ? t('studio.input.size', size) : null,
                ]
                  .filter(Boolean)
                  .join(' · ')}
              </p>
              {input.source === 'file' && input.preview.status === 'converting' && (
                <p className="text-xs text-zinc-500 dark:text-zinc-400">{t('studio.input.converting')}</p>
              )}
              {input.source === 'file' && input.preview.status === 'failed' && (
                <p role="alert" className="text-xs text-amber-700 dark:text-amber-300">
                  {t('studio.input.previewFailed', { message: input.preview.message })}
                </p>
              )}
              <div className="mt-auto flex flex-wrap gap-2 pt-1">
                <label
                  htmlFor={`${ids}-file`}
                  className="relative cursor-pointer rounded-lg border border-zinc-300 px-2.5 py-1 text-xs font-semibold hover:bg-zinc-100 has-focus-visible:outline-2 has-focus-visible:outline-brand-500 dark:border-zinc-700 dark:hover:bg-zinc-800"
                >
                  {t('studio.input.replace')}
                  <span className="sr-only"> ({label})</span>
                  {fileInput}
                </label>
                <FromGalleryButton
                  label={label}
                  onClick={onChooseFromGallery}
                  className="rounded-lg px-2.5 py-1 text-xs"
                />
                <button
                  type="button"
                  onClick={() => {
                    setProblem(null);
                    studioStore.getState().setInput(slot, null);
                  }}
                  aria-label={t('studio.input.removeLabel', { label })}
                  className="inline-flex items-center gap-1 rounded-lg px-2.5 py-1 text-xs font-semibold text-zinc-600 hover:bg-zinc-100 hover:text-red-600 dark:text-zinc-400 dark:hover:bg-zinc-800 dark:hover:text-red-400"
                >
                  <CloseIcon />
                  {t('studio.input.remove')}
                </button>
              </div>
            </div>
          </div>
        )}
      </div>
      {problem && (
        <p
          id={`${ids}-problem`}
          role="alert"
          data-testid={`input-problem-${slot}`}
          className="mt-2 text-sm text-red-600 dark:text-red-400"
        >
          {problem}
        </p>
      )}
    </div>
  );
}

/** "From gallery", for the empty drop zone and beside a chosen image; `className` sets its size. */
function FromGalleryButton({
  label,
  onClick,
  className,
}: {
  label: string;
  onClick: () => void;
  className: string;
}) {
  const { t } = useTranslation();
  return (
    <button
      type="button"
      onClick={onClick}
      aria-label={t('studio.input.fromGalleryFor', { label })}
      className={`${className} border border-zinc-300 font-semibold hover:bg-zinc-100 dark:border-zinc-700 dark:hover:bg-zinc-800`}
    >
      {t('studio.input.fromGallery')}
    </button>
  );
}

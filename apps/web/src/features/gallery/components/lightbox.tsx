import { useId, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { ImageView } from '@lumina/contracts';
import { ChevronIcon, CloseIcon } from '@/components/ui/icons';
import { Modal } from '@/components/ui/modal';
import type { OpenInStudio as OpenInStudioCallback } from '../utils/tool-output';
import { ContentCredentials } from './content-credentials';
import { HowItWasMade } from './how-it-was-made';
import { ImageActions, type ImageActionCallbacks } from './image-actions';
import { OpenInStudio } from './open-in-studio';

function Row({ label, children, testId }: { label: string; children: ReactNode; testId?: string }) {
  return (
    <div className="grid grid-cols-[7.5rem_1fr] gap-2 py-2 text-sm">
      <dt className="text-zinc-500 dark:text-zinc-400">{label}</dt>
      <dd className="min-w-0 font-medium break-words" data-testid={testId}>
        {children}
      </dd>
    </div>
  );
}

/** The image large, with its full recipe and every action; arrow keys move through the list it came from. */
export function Lightbox({
  images,
  index,
  onIndexChange,
  onClose,
  modelName,
  onUseSeed,
  onOpenInStudio,
  ...callbacks
}: {
  images: readonly ImageView[];
  index: number | null;
  onIndexChange: (index: number) => void;
  onClose: () => void;
  modelName?: (id: string) => string | undefined;
  /** Locks this image's seed in the Generate form (shown only where the page offers it). */
  onUseSeed?: (seed: number) => void;
  /** Hands this image to a Studio tool (shown only where the page offers it). */
  onOpenInStudio?: OpenInStudioCallback;
} & ImageActionCallbacks) {
  const { t, i18n } = useTranslation();
  const titleId = useId();
  const image = index === null ? undefined : images[index];
  const hasPrev = index !== null && index > 0;
  const hasNext = index !== null && index < images.length - 1;
  const go = (delta: number) => {
    if (index === null) return;
    const next = index + delta;
    if (next >= 0 && next < images.length) onIndexChange(next);
  };
  const number = (value: number, digits = 2) =>
    new Intl.NumberFormat(i18n.language, { maximumFractionDigits: digits }).format(value);
  const dash = t('images.recipe.none');

  return (
    <Modal
      open={!!image}
      onClose={onClose}
      labelledBy={titleId}
      className="flex max-w-6xl flex-col lg:h-[90vh] lg:flex-row"
      onKeyDown={(event) => {
        const target = event.target as HTMLElement | null;
        if (target?.closest('input, textarea')) return;
        if (event.key === 'ArrowLeft') go(-1);
        if (event.key === 'ArrowRight') go(1);
      }}
    >
      {image && (
        <>
          <button
            type="button"
            onClick={onClose}
            data-autofocus
            aria-label={t('images.lightbox.close')}
            className="absolute top-3 right-3 z-10 inline-flex size-9 items-center justify-center rounded-full bg-white/90 text-xl text-zinc-900 shadow hover:bg-white dark:bg-zinc-900/90 dark:text-zinc-100 dark:hover:bg-zinc-900"
          >
            <CloseIcon />
          </button>
          <div className="relative flex min-h-64 shrink-0 items-center justify-center bg-zinc-100 lg:min-h-0 lg:flex-1 lg:shrink dark:bg-zinc-950">
            <img
              src={image.url}
              alt={image.prompt ?? t('images.untitled')}
              width={image.width}
              height={image.height}
              data-testid="lightbox-image"
              className="max-h-[60vh] w-auto max-w-full object-contain lg:max-h-full"
            />
            {hasPrev && (
              <button
                type="button"
                onClick={() => go(-1)}
                aria-label={t('images.lightbox.previous')}
                className="absolute top-1/2 left-2 inline-flex size-10 -translate-y-1/2 rotate-180 items-center justify-center rounded-full bg-white/90 text-xl shadow hover:bg-white dark:bg-zinc-900/90"
              >
                <ChevronIcon />
              </button>
            )}
            {hasNext && (
              <button
                type="button"
                onClick={() => go(1)}
                aria-label={t('images.lightbox.next')}
                className="absolute top-1/2 right-2 inline-flex size-10 -translate-y-1/2 items-center justify-center rounded-full bg-white/90 text-xl shadow hover:bg-white dark:bg-zinc-900/90"
              >
                <ChevronIcon />
              </button>
            )}
          </div>
          <aside className="flex w-full flex-col gap-4 overflow-y-auto p-5 lg:w-96 lg:shrink-0">
            <h2 id={titleId} className="pr-10 text-lg font-semibold">
              {t('images.lightbox.title')}
            </h2>
            <ImageActions image={image} variant="full" {...callbacks} />
            {onOpenInStudio && <OpenInStudio image={image} onOpen={onOpenInStudio} />}
            <HowItWasMade image={image} />
            <ContentCredentials image={image} />
            <dl className="divide-y divide-zinc-200 dark:divide-zinc-800" data-testid="lightbox-recipe">
              <Row label={t('images.recipe.prompt')} testId="recipe-prompt">
                <span className="font-normal whitespace-pre-wrap">{image.prompt ?? dash}</span>
              </Row>
              <Row label={t('images.recipe.negative')}>
                <span className="font-normal whitespace-pre-wrap">{image.negative_prompt || dash}</span>
              </Row>
              <Row label={t('images.recipe.model')}>{modelName?.(image.model) ?? image.model}</Row>
              <Row label={t('images.recipe.provider')}>
                {t(`images.providers.${image.provider}`, image.provider)}
              </Row>
              <Row label={t('images.recipe.seed')} testId="recipe-seed">
                {image.seed === null ? (
                  dash
                ) : (
                  <span className="inline-flex flex-wrap items-center gap-2 tabular-nums">
                    {image.seed}
                    {onUseSeed && (
                      <button
                        type="button"
                        onClick={() => onUseSeed(image.seed as number)}
                        className="rounded-lg px-2 py-0.5 text-xs font-semibold text-brand-700 ring-1 ring-brand-200 hover:bg-brand-50 dark:text-brand-300 dark:ring-brand-500/40 dark:hover:bg-brand-500/10"
                      >
                        {t('images.recipe.useSeed')}
                      </button>
                    )}
                  </span>
                )}
              </Row>
              <Row label={t('images.recipe.loraScale')}>
                {image.lora_scale === null ? dash : number(image.lora_scale)}
              </Row>
              <Row label={t('images.recipe.promptStrength')}>
                {image.prompt_strength === null ? dash : number(image.prompt_strength)}
              </Row>
              <Row label={t('images.recipe.size')}>
                <span className="tabular-nums">
                  {t('images.recipe.sizeValue', { width: image.width, height: image.height })}
                </span>
              </Row>
              <Row label={t('images.recipe.duration')}>
                {image.duration_ms === null
                  ? dash
                  : t('images.recipe.seconds', { value: number(image.duration_ms / 1000, 1) })}
              </Row>
              {image.is_example && image.category && (
                <Row label={t('images.recipe.category')}>{image.category}</Row>
              )}
              <Row label={t('images.recipe.created')}>
                {new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'short' }).format(
                  new Date(image.created_at),
                )}
              </Row>
            </dl>
          </aside>
        </>
      )}
    </Modal>
  );
}

import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import type { ImageView } from '@lumina/contracts';
import type { OpenInStudio as StudioHandOff } from '../utils/tool-output';

/** Buttons that hand the image to a Studio tool (the user's own images only: tools work on those). */
export function OpenInStudio({ image, onOpen }: { image: ImageView; onOpen: StudioHandOff }) {
  const { t } = useTranslation();
  const labelId = useId();
  if (!image.is_own) return null;
  return (
    <div role="group" aria-labelledby={labelId} data-testid="open-in-studio" className="flex flex-col gap-2">
      <p id={labelId} className="text-sm font-semibold">
        {t('gallery.openInStudio.title')}
      </p>
      <div className="flex flex-wrap gap-2">
        {onOpen.tools.map((tool) => (
          <button
            key={tool}
            type="button"
            data-testid={`studio-${tool}`}
            title={t('gallery.openInStudio.hint', { tool: t(`studio.tools.${tool}.name`) })}
            onClick={() => onOpen.open(tool, image)}
            className="rounded-xl px-3 py-1.5 text-sm font-semibold text-brand-700 ring-1 ring-brand-200 transition hover:bg-brand-50 dark:text-brand-300 dark:ring-brand-500/40 dark:hover:bg-brand-500/10"
          >
            {t(`studio.tools.${tool}.name`)}
          </button>
        ))}
      </div>
    </div>
  );
}

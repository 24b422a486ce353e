import { useTranslation } from 'react-i18next';
import type { ImageView } from '@lumina/contracts';
import { toolOf } from '../utils/tool-output';

/** A small label naming the tool that made the image; nothing for generated images. */
export function ToolBadge({ image }: { image: Pick<ImageView, 'kind' | 'recipe'> }) {
  const { t } = useTranslation();
  const tool = toolOf(image);
  if (!tool) return null;
  const name = t(`studio.tools.${tool}.name`);
  return (
    <span
      data-testid="tool-badge"
      title={t('gallery.toolBadge', { tool: name })}
      className="rounded-full bg-brand-600/90 px-2 py-0.5 text-[11px] font-semibold text-white backdrop-blur dark:bg-brand-500/90 dark:text-zinc-950"
    >
      {name}
    </span>
  );
}

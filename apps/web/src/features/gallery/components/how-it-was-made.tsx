import { useId, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { ImageView } from '@lumina/contracts';
import { toolOf } from '../utils/tool-output';

function Row({ label, children, testId }: { label: string; children: ReactNode; testId: string }) {
  return (
    <div className="grid grid-cols-[7.5rem_1fr] gap-2 py-1.5 text-sm">
      <dt className="text-zinc-500 dark:text-zinc-400">{label}</dt>
      <dd className="min-w-0 font-medium break-words" data-testid={testId}>
        {children}
      </dd>
    </div>
  );
}

/** For a tool output: which tool made it, the settings it used and how many images it worked from. */
export function HowItWasMade({ image }: { image: Pick<ImageView, 'kind' | 'recipe'> }) {
  const { t, i18n } = useTranslation();
  const headingId = useId();
  const tool = toolOf(image);
  if (!tool) return null;
  const recipe = image.recipe;
  const number = (value: number, digits = 2) =>
    new Intl.NumberFormat(i18n.language, { maximumFractionDigits: digits }).format(value);
  return (
    <section
      aria-labelledby={headingId}
      data-testid="how-it-was-made"
      className="rounded-2xl bg-zinc-50 p-4 ring-1 ring-zinc-200 dark:bg-zinc-900 dark:ring-zinc-800"
    >
      <h3 id={headingId} className="mb-1 text-sm font-semibold">
        {t('gallery.howItWasMade.title')}
      </h3>
      <dl>
        <Row label={t('gallery.howItWasMade.tool')} testId="made-tool">
          {t(`studio.tools.${tool}.name`)}
        </Row>
        {recipe?.strength !== undefined && (
          <Row label={t('gallery.howItWasMade.strength')} testId="made-strength">
            {number(recipe.strength)}
          </Row>
        )}
        {recipe?.factor !== undefined && (
          <Row label={t('gallery.howItWasMade.factor')} testId="made-factor">
            {t('gallery.howItWasMade.factorValue', { factor: number(recipe.factor, 0) })}
          </Row>
        )}
        {recipe?.aspect_ratio !== undefined && (
          <Row label={t('gallery.howItWasMade.aspectRatio')} testId="made-aspect-ratio">
            {recipe.aspect_ratio}
          </Row>
        )}
        {recipe?.duration !== undefined && (
          <Row label={t('gallery.howItWasMade.duration')} testId="made-duration">
            {t('images.recipe.seconds', { value: number(recipe.duration, 1) })}
          </Row>
        )}
        {recipe?.description !== undefined && recipe.description !== '' && (
          <Row label={t('gallery.howItWasMade.description')} testId="made-description">
            <span className="font-normal whitespace-pre-wrap">{recipe.description}</span>
          </Row>
        )}
        {recipe && (
          <Row label={t('gallery.howItWasMade.sources')} testId="made-sources">
            {t('gallery.howItWasMade.sourcesValue', { count: recipe.source_image_ids.length })}
          </Row>
        )}
      </dl>
    </section>
  );
}

import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { paths } from '@/config/paths';
import { useCounter } from '../api/get-counter';
import { useFeaturedExamples } from '../api/list-examples';
import { ExampleCard } from './example-card';

export const SHOWCASE_SIZE = 6;

/** The landing page's examples: the newest public ones, with a link to all of them. */
export function ExampleShowcase({ modelName }: { modelName?: (id: string) => string | undefined }) {
  const { t } = useTranslation();
  const examples = useFeaturedExamples(SHOWCASE_SIZE);
  const items = examples.data?.items ?? [];
  return (
    <section aria-labelledby="examples-heading" className="flex flex-col gap-5">
      <div className="flex items-end justify-between gap-4">
        <h2 id="examples-heading" className="text-xl font-semibold tracking-tight sm:text-2xl">
          {t('landing.examples.title')}
        </h2>
        <Link
          to={paths.examples}
          className="text-sm font-semibold text-brand-700 underline-offset-2 hover:underline dark:text-brand-300"
        >
          {t('landing.examples.all')}
        </Link>
      </div>
      {examples.isPending ? (
        // Reserves the grid's height while the list loads, so the page below does not jump.
        <div className="h-96 animate-pulse rounded-3xl bg-zinc-100 dark:bg-zinc-900" aria-hidden="true" />
      ) : items.length === 0 ? (
        <p className="text-sm text-zinc-600 dark:text-zinc-400" data-testid="showcase-empty">
          {t('landing.examples.empty')}
        </p>
      ) : (
        <div className="columns-1 gap-4 sm:columns-2 lg:columns-3" data-testid="showcase">
          {items.map((image, i) => (
            <ExampleCard key={image.id} image={image} modelName={modelName?.(image.model)} eager={i < 3} />
          ))}
        </div>
      )}
    </section>
  );
}

/**
 * The live counters (`GET /api/counter`): images made, models trained and photo shoots delivered. Until
 * they arrive the same sentence with zeros holds their place invisibly, so nothing below moves.
 */
export function LiveCounter() {
  const { t, i18n } = useTranslation();
  const counter = useCounter();
  const number = new Intl.NumberFormat(i18n.language);
  const data = counter.data ?? { images: 0, models_trained: 0, shoots_delivered: 0 };
  const part = (key: string, count: number, testId: string) => (
    <span data-testid={testId}>{t(key, { count, formatted: number.format(count) })}</span>
  );
  return (
    <p className="text-sm text-zinc-600 dark:text-zinc-400" data-testid="live-counter" aria-live="polite">
      <span className={counter.data ? undefined : 'invisible'}>
        {part('landing.counter', data.images, 'images-made')}
        {' · '}
        {part('landing.modelsTrained', data.models_trained, 'models-trained')}
        {' · '}
        {part('landing.shootsDelivered', data.shoots_delivered, 'shoots-delivered')}
      </span>
    </p>
  );
}

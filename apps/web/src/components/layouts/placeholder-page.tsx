import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { PathKey } from '@/config/paths';
import { paths } from '@/config/paths';
import { ButtonLink } from '@/components/ui/button-link';
import { PageHeader } from './page-header';
import { useDocumentTitle } from './use-document-title';

/** The shell of a product screen that is not built yet: its title, what will live here, and a calm empty state. */
export function PlaceholderPage({ page, icon }: { page: Exclude<PathKey, 'home'>; icon: ReactNode }) {
  const { t } = useTranslation();
  const title = t(`pages.${page}.title`);
  useDocumentTitle(title);
  return (
    <div className="flex flex-col gap-10">
      <PageHeader icon={icon} title={title} description={t(`pages.${page}.description`)} />
      <section
        aria-labelledby="placeholder-heading"
        className="relative overflow-hidden rounded-3xl border border-dashed border-zinc-300 bg-white px-6 py-14 text-center dark:border-zinc-700 dark:bg-zinc-900/60"
      >
        <div
          aria-hidden="true"
          className="pointer-events-none absolute inset-x-0 -top-24 mx-auto h-48 w-2/3 rounded-full bg-brand-400/20 blur-3xl dark:bg-brand-500/15"
        />
        <div className="relative mx-auto flex max-w-md flex-col items-center gap-3">
          <span className="rounded-full bg-brand-50 px-3 py-1 text-xs font-semibold text-brand-700 ring-1 ring-brand-200 ring-inset dark:bg-brand-500/10 dark:text-brand-300 dark:ring-brand-500/30">
            {t('placeholder.badge')}
          </span>
          <h2 id="placeholder-heading" className="text-xl font-semibold">
            {t('placeholder.heading')}
          </h2>
          <p className="text-sm text-zinc-600 dark:text-zinc-400">{t('placeholder.body')}</p>
          <div className="mt-3">
            <ButtonLink to={paths.home} variant="secondary">
              {t('placeholder.backHome')}
            </ButtonLink>
          </div>
        </div>
      </section>
    </div>
  );
}

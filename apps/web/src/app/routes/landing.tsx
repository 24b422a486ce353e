import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { paths, type PathKey } from '@/config/paths';
import { ButtonLink } from '@/components/ui/button-link';
import { useDocumentTitle } from '@/components/layouts/use-document-title';
import {
  ArrowRightIcon,
  BrainIcon,
  ExpandIcon,
  FilmIcon,
  PaletteIcon,
  SparklesIcon,
  WandIcon,
} from '@/components/ui/icons';
import { ErrorBoundary } from '@/components/errors/error-boundary';
import { PackagePrices } from '@/features/credits/components/package-prices';
import { ExampleShowcase, LiveCounter } from '@/features/examples/components/example-showcase';
import { useModelName } from '@/features/generate/api/get-models';
import { AverageRating } from '@/features/reviews/components/average-rating';
import { ReferralNotice } from '@/features/referrals/components/referral-notice';

const features: { key: string; to: PathKey; icon: ReactNode }[] = [
  { key: 'generate', to: 'generate', icon: <SparklesIcon /> },
  { key: 'style', to: 'studio', icon: <PaletteIcon /> },
  { key: 'edit', to: 'studio', icon: <WandIcon /> },
  { key: 'upscale', to: 'studio', icon: <ExpandIcon /> },
  { key: 'animate', to: 'studio', icon: <FilmIcon /> },
  { key: 'train', to: 'training', icon: <BrainIcon /> },
];

/**
 * The landing page: what Lumina makes (the newest public examples), how much (the live counter), what
 * people think (the average review), what it costs (the credit packages), and one call to action.
 */
export default function LandingRoute() {
  const { t } = useTranslation();
  useDocumentTitle(t('pages.home.documentTitle'));
  const modelName = useModelName();
  return (
    <div className="flex flex-col gap-16 sm:gap-20">
      <section className="relative isolate pt-6 text-center sm:pt-12">
        <div
          aria-hidden="true"
          className="absolute inset-x-0 -top-20 -z-10 mx-auto h-72 max-w-3xl rounded-full bg-gradient-to-r from-brand-400/30 via-fuchsia-400/20 to-sky-400/20 blur-3xl dark:from-brand-600/25 dark:via-fuchsia-600/15 dark:to-sky-600/10"
        />
        <ErrorBoundary fallback={() => null}>
          <ReferralNotice className="mx-auto mb-6 max-w-xl text-left" />
        </ErrorBoundary>
        <p className="mx-auto mb-5 inline-flex items-center gap-2 rounded-full border border-brand-200 bg-white/70 px-3 py-1 text-xs font-semibold text-brand-700 dark:border-brand-500/30 dark:bg-zinc-900/70 dark:text-brand-300">
          <SparklesIcon className="size-3.5" />
          {t('pages.home.eyebrow')}
        </p>
        <h1 className="mx-auto max-w-3xl text-4xl font-extrabold tracking-tight text-balance sm:text-6xl">
          {t('pages.home.title')}
        </h1>
        <p className="mx-auto mt-5 max-w-2xl text-base text-pretty text-zinc-600 sm:text-lg dark:text-zinc-400">
          {t('pages.home.description')}
        </p>
        <div className="mt-8 flex flex-col items-center justify-center gap-4">
          <ButtonLink to={paths.generate}>
            {t('pages.home.primaryCta')}
            <ArrowRightIcon />
          </ButtonLink>
          <div className="flex min-h-5 flex-col items-center gap-1.5">
            <ErrorBoundary fallback={() => null}>
              <LiveCounter />
            </ErrorBoundary>
            <ErrorBoundary fallback={() => null}>
              <AverageRating />
            </ErrorBoundary>
          </div>
        </div>
      </section>

      <ErrorBoundary fallback={() => null}>
        <ExampleShowcase modelName={modelName} />
      </ErrorBoundary>

      <section aria-labelledby="features-heading">
        <h2 id="features-heading" className="mb-6 text-xl font-semibold tracking-tight sm:text-2xl">
          {t('pages.home.featuresTitle')}
        </h2>
        <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
          {features.map((feature) => (
            <li key={feature.key}>
              <Link
                to={paths[feature.to]}
                className="group flex h-full flex-col gap-3 rounded-2xl border border-zinc-200 bg-white p-5 transition hover:-translate-y-0.5 hover:border-brand-300 hover:shadow-lg hover:shadow-brand-500/5 dark:border-zinc-800 dark:bg-zinc-900 dark:hover:border-brand-500/50"
              >
                <span className="flex size-10 items-center justify-center rounded-xl bg-brand-50 text-xl text-brand-600 dark:bg-brand-500/10 dark:text-brand-300">
                  {feature.icon}
                </span>
                <span className="font-semibold">{t(`pages.home.features.${feature.key}.title`)}</span>
                <span className="text-sm text-zinc-600 dark:text-zinc-400">
                  {t(`pages.home.features.${feature.key}.body`)}
                </span>
              </Link>
            </li>
          ))}
        </ul>
      </section>

      <section aria-labelledby="pricing-heading" className="flex flex-col gap-5">
        <div>
          <h2 id="pricing-heading" className="text-xl font-semibold tracking-tight sm:text-2xl">
            {t('landing.pricingTitle')}
          </h2>
          <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">{t('landing.pricingBody')}</p>
        </div>
        <ErrorBoundary fallback={() => null}>
          <PackagePrices />
        </ErrorBoundary>
      </section>
    </div>
  );
}

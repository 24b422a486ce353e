import { useEffect, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { LoadingBlock, QueryError } from '@/components/ui/query-states';
import { Button } from '@/components/ui/button';
import { Alert } from '@/components/ui/alert';
import { useOnboarding } from '../api/get-onboarding';
import { useSkipOnboarding } from '../api/skip-onboarding';
import {
  isWizardStep,
  nextPath,
  readStored,
  SET_STORAGE_KEY,
  STEP_STORAGE_KEY,
  WIZARD_STEPS,
  writeStored,
  type WizardStep,
} from '../utils/wizard-steps';
import { AboutYouForm } from './about-you-form';
import { CheckoutStep } from './checkout-step';
import { PhotosStep } from './photos-step';
import { ProductStep } from './product-step';

const panelClass =
  'rounded-3xl border border-zinc-200 bg-white p-5 shadow-sm sm:p-6 dark:border-zinc-800 dark:bg-zinc-900';

/**
 * /onboarding: about you → your photos → the onboarding product → checkout. The step is kept in the URL
 * and in sessionStorage and the answers on the server, so a reload resumes where the person was; every
 * step can be skipped ("Skip for now"), which goes on to the page they first opened (or Generate).
 */
export function OnboardingWizard({
  redirect = (url: string) => window.location.assign(url),
}: {
  /** Leaves the app for a money checkout (Stripe, or the development checkout page). */
  redirect?: (url: string) => void;
} = {}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [search, setSearch] = useSearchParams();
  const fromUrl = search.get('step');
  const stored = readStored(STEP_STORAGE_KEY);
  const step: WizardStep = isWizardStep(fromUrl) ? fromUrl : isWizardStep(stored) ? stored : 'about';
  const next = nextPath(search.get('next'));
  /** Arrived with nothing to resume (a sign-in lands here): read once, before the step is stored. */
  const [arrivedFresh] = useState(() => fromUrl === null && stored === null);
  const [setId, setSetId] = useState<string | null>(() => readStored(SET_STORAGE_KEY));
  const answers = useOnboarding();
  const skip = useSkipOnboarding();

  /**
   * Set once the wizard is on its way out (skipped, bought, off to checkout). Router v7 navigates in a
   * transition, so the wizard may render once more before it unmounts: with the stored step cleared it
   * would read as the first step and store that, and the next visit would not arrive fresh.
   */
  const leaving = useRef(false);
  useEffect(() => {
    if (!leaving.current) writeStored(STEP_STORAGE_KEY, step);
  }, [step]);

  // Focus follows the step: the new step's heading is read out first (not on arrival, which keeps the
  // page's own start).
  const heading = useRef<HTMLHeadingElement>(null);
  const shownStep = useRef(step);
  useEffect(() => {
    if (shownStep.current !== step) heading.current?.focus();
    shownStep.current = step;
  }, [step]);

  function go(to: WizardStep) {
    setSearch(
      (before) => {
        const after = new URLSearchParams(before);
        after.set('step', to);
        return after;
      },
      { replace: false },
    );
  }

  function chooseSet(id: string | null) {
    setSetId(id);
    writeStored(SET_STORAGE_KEY, id);
  }

  function leave(to: string) {
    leaving.current = true;
    writeStored(STEP_STORAGE_KEY, null);
    writeStored(SET_STORAGE_KEY, null);
    void navigate(to);
  }

  const skipButton = (
    <Button
      look="secondary"
      onClick={() => skip.mutate(undefined, { onSuccess: () => leave(next) })}
      disabled={skip.isPending}
      data-testid="onboarding-skip"
    >
      {t('onboarding.skip')}
    </Button>
  );

  const index = WIZARD_STEPS.indexOf(step);
  let body: ReactNode;
  if (step === 'about') {
    body = answers.isPending ? (
      <LoadingBlock className="py-10" />
    ) : (
      <>
        {/* Without the stored answers the form starts empty; saving still works. */}
        {answers.isError && (
          <div className="mb-4">
            <QueryError error={answers.error} onRetry={() => void answers.refetch()} compact />
          </div>
        )}
        <AboutYouForm
          // Answers that arrive after a failed load (Retry) fill the form once; later refetches keep the edits.
          key={answers.isSuccess ? 'stored' : 'empty'}
          initial={answers.data}
          submitLabel={t('onboarding.about.save')}
          onSaved={() => go('photos')}
          actions={skipButton}
        />
      </>
    );
  } else if (step === 'photos') {
    body = (
      <PhotosStep
        setId={setId}
        onChooseSet={chooseSet}
        onBack={() => go('about')}
        onContinue={() => go('product')}
        skip={skipButton}
      />
    );
  } else if (step === 'product') {
    body = <ProductStep onBack={() => go('photos')} onContinue={() => go('checkout')} skip={skipButton} />;
  } else {
    body = (
      <CheckoutStep
        setId={setId}
        onBack={() => go('product')}
        onBoughtWithCredits={(to) => leave(to)}
        onCheckout={(url) => {
          // The set stays chosen: a cancelled checkout comes back to this step (?step=checkout) with it.
          leaving.current = true;
          writeStored(STEP_STORAGE_KEY, null);
          redirect(url);
        }}
        skip={skipButton}
      />
    );
  }

  return (
    <div className="flex min-w-0 flex-col gap-6" data-testid="onboarding-wizard" data-step={step}>
      <nav aria-label={t('onboarding.steps.label')}>
        <ol className="flex flex-wrap gap-2 text-sm">
          {WIZARD_STEPS.map((s, i) => (
            <li
              key={s}
              aria-current={s === step ? 'step' : undefined}
              className={`rounded-full px-3 py-1 font-medium ${
                s === step
                  ? 'bg-brand-600 text-white'
                  : i < index
                    ? 'bg-brand-100 text-brand-800 dark:bg-brand-500/15 dark:text-brand-200'
                    : 'bg-zinc-100 text-zinc-700 dark:bg-zinc-800 dark:text-zinc-300'
              }`}
            >
              <span className="tabular-nums">{i + 1}.</span> {t(`onboarding.steps.${s}`)}
            </li>
          ))}
        </ol>
      </nav>
      {/* A returning person lands here after every sign-in (SPEC S7): say they are done, and where to go. */}
      {answers.data?.onboarded && arrivedFresh && fromUrl === null && (
        <Alert tone="info" live={false} testId="onboarding-already-done">
          {t('onboarding.alreadyDone')}{' '}
          <Link to={next} className="font-semibold underline underline-offset-2">
            {t('onboarding.goOn')}
          </Link>
        </Alert>
      )}
      <section aria-labelledby="onboarding-step-heading" className={panelClass}>
        <p className="text-xs font-semibold tracking-wider text-brand-600 uppercase dark:text-brand-400">
          {t('onboarding.stepOf', { n: index + 1, total: WIZARD_STEPS.length })}
        </p>
        <h2
          id="onboarding-step-heading"
          ref={heading}
          tabIndex={-1}
          className="mt-1 mb-4 text-xl font-semibold outline-none"
          data-testid="onboarding-step-heading"
        >
          {t(`onboarding.steps.${step}`)}
        </h2>
        {step === 'about' && (
          <p className="mb-5 text-sm text-zinc-600 dark:text-zinc-400">{t('onboarding.about.intro')}</p>
        )}
        {body}
        {skip.error && (
          <Alert tone="error" className="mt-4" testId="onboarding-skip-error">
            {t('onboarding.skipFailed', { detail: skip.error.message })}
          </Alert>
        )}
      </section>
    </div>
  );
}

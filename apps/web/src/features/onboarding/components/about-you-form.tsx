import { useId, useMemo, useState, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import {
  GENDERS,
  OnboardingInput,
  REFERRAL_SOURCE_MAX,
  REFERRAL_SOURCES,
  USE_CASES,
  type OnboardingView,
} from '@lumina/contracts';
import { RequestError } from '@/components/forms/action-bar';
import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { Spinner } from '@/components/ui/spinner';
import { ApiError } from '@/lib/api-client';
import { useSubmitOnboarding } from '../api/submit-onboarding';
import { countryOptions } from '../utils/country-names';
import { serverFieldErrors } from '../utils/server-field-errors';

const FIELDS = ['use_case', 'country', 'phone', 'referral_source', 'gender'] as const;
type FieldName = (typeof FIELDS)[number];
type FieldErrors = Partial<Record<FieldName, string>>;

/** The list's own answers; anything else the person typed is "other" with their words. */
const OTHER = 'other';
const isListedSource = (value: string) => (REFERRAL_SOURCES as readonly string[]).includes(value);

export const controlClass =
  'w-full rounded-xl border border-zinc-300 bg-white px-3 py-2.5 text-sm outline-none focus-visible:border-brand-500 focus-visible:ring-2 focus-visible:ring-brand-500/30 aria-invalid:border-red-500 dark:border-zinc-700 dark:bg-zinc-950';

/**
 * The onboarding answers (use case, country, phone, how they heard of us, gender), as a form: the first
 * step of /onboarding and the account page's "About you". The contract's own schema checks them before
 * sending; the server's 400 detail is split so each message sits under its field.
 */
export function AboutYouForm({
  initial,
  submitLabel,
  onSaved,
  actions,
  testId = 'about-you-form',
}: {
  /** The stored answers (GET /api/onboarding), if any. */
  initial: OnboardingView | undefined;
  submitLabel: string;
  onSaved: (view: OnboardingView) => void;
  /** More buttons beside Save (the wizard's Skip). */
  actions?: ReactNode;
  testId?: string;
}) {
  const { t, i18n } = useTranslation();
  const ids = useId();
  const countries = useMemo(() => countryOptions(i18n.language), [i18n.language]);
  const storedSource = initial?.referral_source ?? '';
  const [useCase, setUseCase] = useState<string>(initial?.use_case ?? '');
  const [country, setCountry] = useState(initial?.country ?? '');
  const [phone, setPhone] = useState(initial?.phone ?? '');
  const [source, setSource] = useState(
    storedSource === '' ? '' : isListedSource(storedSource) ? storedSource : OTHER,
  );
  const [otherSource, setOtherSource] = useState(
    storedSource && !isListedSource(storedSource) ? storedSource : '',
  );
  const [gender, setGender] = useState<string>(initial?.gender ?? '');
  const [errors, setErrors] = useState<FieldErrors>({});
  const [formError, setFormError] = useState<string | null>(null);
  const submit = useSubmitOnboarding();

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    const request = {
      use_case: useCase,
      country,
      phone: phone.trim() === '' ? undefined : phone,
      referral_source: source === OTHER ? otherSource : source,
      gender: gender === '' ? undefined : gender,
    };
    const parsed = OnboardingInput.safeParse(request);
    if (!parsed.success) {
      const next: FieldErrors = {};
      for (const issue of parsed.error.issues) {
        const field = issue.path[0] as FieldName;
        next[field] ??= issue.message;
      }
      setErrors(next);
      setFormError(null);
      return;
    }
    setErrors({});
    setFormError(null);
    submit.mutate(parsed.data, {
      onSuccess: onSaved,
      onError: (error) => {
        if (error instanceof ApiError && error.status === 400) {
          const split = serverFieldErrors(error.detail, FIELDS);
          setErrors(split.fields);
          setFormError(split.rest);
        } else {
          setFormError(error.message);
        }
      },
    });
  }

  const referralField: FieldName = 'referral_source';
  return (
    <form onSubmit={onSubmit} noValidate className="flex flex-col gap-5" data-testid={testId}>
      <div className="grid gap-5 sm:grid-cols-2">
        <Field label={t('onboarding.about.useCase')} error={errors.use_case}>
          {(control) => (
            <select
              {...control}
              name="use_case"
              value={useCase}
              onChange={(e) => setUseCase(e.target.value)}
              className={controlClass}
            >
              <option value="" disabled>
                {t('onboarding.about.useCasePlaceholder')}
              </option>
              {USE_CASES.map((u) => (
                <option key={u} value={u}>
                  {t(`onboarding.about.useCases.${u}`)}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field label={t('onboarding.about.country')} error={errors.country}>
          {(control) => (
            <select
              {...control}
              name="country"
              autoComplete="country"
              value={country}
              onChange={(e) => setCountry(e.target.value)}
              className={controlClass}
            >
              <option value="" disabled>
                {t('onboarding.about.countryPlaceholder')}
              </option>
              {countries.map((c) => (
                <option key={c.code} value={c.code}>
                  {c.name}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field
          label={t('onboarding.about.phone')}
          hint={t('onboarding.about.phoneHint')}
          error={errors.phone}
        >
          {(control) => (
            <input
              {...control}
              name="phone"
              type="tel"
              autoComplete="tel"
              inputMode="tel"
              placeholder="+44 20 7946 0958"
              value={phone}
              onChange={(e) => setPhone(e.target.value)}
              className={controlClass}
            />
          )}
        </Field>
        <Field label={t('onboarding.about.gender')} error={errors.gender}>
          {(control) => (
            <select
              {...control}
              name="gender"
              value={gender}
              onChange={(e) => setGender(e.target.value)}
              className={controlClass}
            >
              <option value="">{t('onboarding.about.genderNone')}</option>
              {GENDERS.map((g) => (
                <option key={g} value={g}>
                  {t(`onboarding.about.genders.${g}`)}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field
          label={t('onboarding.about.referral')}
          error={source === OTHER ? undefined : errors[referralField]}
        >
          {(control) => (
            <select
              {...control}
              name="referral_source"
              value={source}
              onChange={(e) => setSource(e.target.value)}
              className={controlClass}
            >
              <option value="" disabled>
                {t('onboarding.about.referralPlaceholder')}
              </option>
              {[...REFERRAL_SOURCES, OTHER].map((s) => (
                <option key={s} value={s}>
                  {t(`onboarding.about.referrals.${s}`)}
                </option>
              ))}
            </select>
          )}
        </Field>
        {source === OTHER && (
          <Field
            id={`${ids}-other`}
            label={t('onboarding.about.referralOther')}
            hint={t('onboarding.about.referralOtherHint', { max: REFERRAL_SOURCE_MAX })}
            error={errors[referralField]}
          >
            {(control) => (
              <input
                {...control}
                name="referral_other"
                maxLength={REFERRAL_SOURCE_MAX}
                value={otherSource}
                onChange={(e) => setOtherSource(e.target.value)}
                className={controlClass}
              />
            )}
          </Field>
        )}
      </div>
      {formError && <RequestError testId="about-you-error">{formError}</RequestError>}
      <div className="flex flex-wrap items-center gap-3">
        <Button type="submit" disabled={submit.isPending} data-testid="about-you-save">
          {submit.isPending && <Spinner className="size-4 border-white/40 border-t-white" />}
          {submitLabel}
        </Button>
        {actions}
      </div>
    </form>
  );
}

import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import {
  TRAINING_MAX_PHOTOS,
  TRAINING_MIN_PHOTOS,
  TRAINING_SUBJECTS,
  TrainRequest,
  type ModelInfo,
  type TrainingSubject,
} from '@lumina/contracts';
import { BuyCreditsLink, NotEnoughCredits, RequestError } from '@/components/forms/action-bar';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { BrainIcon } from '@/components/ui/icons';
import { ModelOption } from '@/components/ui/model-option';
import { Spinner } from '@/components/ui/spinner';
import { ApiError } from '@/lib/api-client';
import { affordability } from '@/lib/credits/affordability';
import { useStartTraining } from '../api/train-model';
import { clampSteps, stepsIncrement, trainingPrice } from '../utils/training-price';

type FieldErrors = Partial<Record<'name' | 'trigger_word' | 'steps' | 'form', string>>;

const inputClass =
  'w-full rounded-xl border border-zinc-300 bg-white px-3 py-2.5 text-sm outline-none focus-visible:border-brand-500 focus-visible:ring-2 focus-visible:ring-brand-500/30 aria-invalid:border-red-500 dark:border-zinc-700 dark:bg-zinc-950';

type Accepted = Awaited<ReturnType<ReturnType<typeof useStartTraining>['mutateAsync']>>;

/**
 * What to train and how: a name, an optional trigger word, what the photos show, the train model and its
 * steps, the price (the one price function) against the balance, and Start.
 */
export function TrainForm({
  setId,
  photoCount,
  trainers,
  balance,
  onStarted,
}: {
  setId: string;
  photoCount: number;
  /** The catalogue's train models, usable first. */
  trainers: readonly ModelInfo[];
  balance: number | undefined;
  onStarted: (accepted: Accepted) => void;
}) {
  const { t } = useTranslation();
  const ids = useId();
  const [name, setName] = useState('');
  const [trigger, setTrigger] = useState('');
  const [subject, setSubject] = useState<TrainingSubject>('person');
  const [trainerId, setTrainerId] = useState<string | null>(
    () => (trainers.find((m) => m.available) ?? trainers[0])?.id ?? null,
  );
  const trainer = trainers.find((m) => m.id === trainerId);
  const [steps, setSteps] = useState(() => trainer?.training?.default_steps ?? 1000);
  const [errors, setErrors] = useState<FieldErrors>({});
  const start = useStartTraining({ onAccepted: onStarted });

  /** Another train model has other bounds: its steps start from its default. */
  function chooseTrainer(id: string) {
    setTrainerId(id);
    const next = trainers.find((m) => m.id === id);
    if (next?.training) setSteps(next.training.default_steps);
  }

  const price = trainingPrice(trainer, steps);
  const afford = affordability(price, balance);
  const enoughPhotos = photoCount >= TRAINING_MIN_PHOTOS && photoCount <= TRAINING_MAX_PHOTOS;
  const usable = trainer?.available === true;
  const serverError = start.error instanceof ApiError ? start.error : null;
  const canSubmit = usable && enoughPhotos && afford.ok && !start.isPending;

  function submit(event: FormEvent) {
    event.preventDefault();
    if (!trainer || !canSubmit) return;
    const request = {
      set_id: setId,
      name,
      trigger_word: trigger,
      subject,
      base_model: trainer.id,
      steps: clampSteps(trainer, steps),
    };
    const parsed = TrainRequest.safeParse(request);
    if (!parsed.success) {
      const next: FieldErrors = {};
      for (const issue of parsed.error.issues) {
        const field = String(issue.path[0] ?? 'form');
        const key = (['name', 'trigger_word', 'steps'].includes(field) ? field : 'form') as keyof FieldErrors;
        next[key] ??= issue.message;
      }
      setErrors(next);
      return;
    }
    setErrors({});
    start.mutate({ request: parsed.data, trainer });
  }

  return (
    <form
      onSubmit={submit}
      noValidate
      aria-labelledby={`${ids}-heading`}
      className="flex flex-col gap-6"
      data-testid="train-form"
    >
      <h2 id={`${ids}-heading`} className="text-lg font-semibold">
        {t('training.form.heading')}
      </h2>
      <div className="grid gap-5 sm:grid-cols-2">
        <Field label={t('training.form.name')} error={errors.name}>
          {(control) => (
            <input
              {...control}
              value={name}
              maxLength={60}
              autoComplete="off"
              placeholder={t('training.form.namePlaceholder')}
              onChange={(e) => setName(e.target.value)}
              className={inputClass}
            />
          )}
        </Field>
        <Field
          label={t('training.form.trigger')}
          hint={t('training.form.triggerHint')}
          error={errors.trigger_word}
        >
          {(control) => (
            <input
              {...control}
              value={trigger}
              maxLength={24}
              autoComplete="off"
              spellCheck={false}
              placeholder={t('training.form.triggerPlaceholder')}
              onChange={(e) => setTrigger(e.target.value)}
              className={`${inputClass} font-mono`}
            />
          )}
        </Field>
      </div>

      <fieldset className="min-w-0">
        <legend className="mb-2 text-sm font-semibold">{t('training.form.subject')}</legend>
        <div className="flex flex-wrap gap-2">
          {TRAINING_SUBJECTS.map((s) => (
            <label
              key={s}
              className={`cursor-pointer rounded-xl border px-3 py-2 text-sm font-medium has-focus-visible:outline-2 has-focus-visible:outline-brand-500 ${
                subject === s
                  ? 'border-brand-500 bg-brand-50 text-brand-800 dark:border-brand-400 dark:bg-brand-500/15 dark:text-brand-200'
                  : 'border-zinc-300 hover:bg-zinc-100 dark:border-zinc-700 dark:hover:bg-zinc-800'
              }`}
            >
              <input
                type="radio"
                name={`${ids}-subject`}
                value={s}
                checked={subject === s}
                onChange={() => setSubject(s)}
                className="sr-only"
              />
              {t(`training.form.subjects.${s}`)}
            </label>
          ))}
        </div>
        <p className="mt-1.5 text-xs text-zinc-500 dark:text-zinc-400">
          {t(`training.form.subjectHints.${subject}`)}
        </p>
      </fieldset>

      {/* min-w-0: a fieldset is as wide as its content by default, wider than a phone. */}
      <fieldset className="min-w-0">
        <legend className="mb-2 text-sm font-semibold">{t('training.form.trainer')}</legend>
        {trainers.length === 0 ? (
          <p className="text-sm text-zinc-600 dark:text-zinc-400">{t('training.form.noTrainers')}</p>
        ) : (
          <div className="grid grid-cols-1 gap-2 sm:grid-cols-2">
            {trainers.map((m) => (
              <ModelOption
                key={m.id}
                model={m}
                group={`${ids}-trainer`}
                checked={m.id === trainerId}
                price={
                  m.training && m.training.min_steps === m.training.max_steps
                    ? t('training.form.flatPrice', { count: trainingPrice(m, m.training.default_steps) })
                    : t('training.form.perThousand', { count: m.credit_cost })
                }
                providerLabel={t(`generate.providers.${m.provider}`)}
                unavailableFallback={t('generate.form.unavailable')}
                onChange={chooseTrainer}
              />
            ))}
          </div>
        )}
      </fieldset>

      {trainer?.provider === 'local' && (
        <Alert tone="info" live={false} testId="local-trainer-note">
          {t('training.form.localNote')}
        </Alert>
      )}

      {/* A trainer with one step count (the local one) has nothing to choose: no slider. */}
      {trainer?.training && trainer.training.min_steps < trainer.training.max_steps && (
        <div>
          <div className="mb-1 flex items-baseline justify-between">
            <label htmlFor={`${ids}-steps`} className="text-sm font-semibold">
              {t('training.form.steps')}
            </label>
            <output
              htmlFor={`${ids}-steps`}
              data-testid="training-steps-value"
              className="text-sm font-medium text-brand-700 tabular-nums dark:text-brand-300"
            >
              {steps}
            </output>
          </div>
          <input
            id={`${ids}-steps`}
            type="range"
            min={trainer.training.min_steps}
            max={trainer.training.max_steps}
            step={stepsIncrement(trainer.training)}
            value={steps}
            onChange={(e) => setSteps(Number(e.target.value))}
            aria-describedby={`${ids}-steps-hint`}
            className="w-full accent-brand-600 dark:accent-brand-400"
          />
          <p id={`${ids}-steps-hint`} className="text-xs text-zinc-500 dark:text-zinc-400">
            {t('training.form.stepsHint', {
              min: trainer.training.min_steps,
              max: trainer.training.max_steps,
            })}
          </p>
        </div>
      )}

      <div className="flex flex-col gap-3">
        {!enoughPhotos && (
          <Alert tone="warning" testId="training-count-warning">
            {t('training.form.needPhotos', {
              min: TRAINING_MIN_PHOTOS,
              max: TRAINING_MAX_PHOTOS,
              count: photoCount,
            })}
          </Alert>
        )}
        {trainer && !usable && (
          <p role="status" className="text-sm text-amber-700 dark:text-amber-300">
            {trainer.unavailable_reason ?? t('generate.form.unavailable')}
          </p>
        )}
        {!afford.ok && (
          <NotEnoughCredits page="training.form" cost={price} balance={balance} missing={afford.missing} />
        )}
        {(serverError || errors.form) && (
          <RequestError testId="training-error">
            {serverError?.detail ?? errors.form}
            {serverError?.status === 402 && (
              <>
                {' '}
                <BuyCreditsLink>{t('training.form.buyCredits')}</BuyCreditsLink>
              </>
            )}
          </RequestError>
        )}
        <Button look="cta" type="submit" disabled={!canSubmit} data-testid="training-submit">
          {start.isPending ? <Spinner className="size-5 border-white/40 border-t-white" /> : <BrainIcon />}
          {t('training.form.submit', { count: price })}
        </Button>
      </div>
    </form>
  );
}

import { useEffect, useId, useMemo, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { PROMPT_MAX_LENGTH, PromptRequest, SEED_MAX, type ModelInfo } from '@lumina/contracts';
import { paths } from '@/config/paths';
import { ApiError } from '@/lib/api-client';
import { AlertIcon, DiceIcon, LockIcon, SparklesIcon, UnlockIcon } from '@/components/ui/icons';
import { Spinner } from '@/components/ui/spinner';
import { useCreatePrompt } from '../api/create-prompt';
import { useGenerateForm, generateFormStore, type GenerateFormValues } from '../stores/generate-form';
import { affordability, totalCost } from '../utils/cost';
import { defaultModel, findModel } from '../utils/recipe';
import { AspectRatioPicker } from './aspect-ratio-picker';
import { ModelPicker } from './model-picker';

type FieldErrors = Partial<Record<'text' | 'negative_text' | 'seed' | 'model' | 'form', string>>;

const isMac = () =>
  typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform || navigator.userAgent);

/** Builds the request body from the form and the chosen model's capabilities (unsupported knobs are left out). */
export function buildPromptRequest(values: GenerateFormValues, model: ModelInfo): PromptRequest {
  const seed = values.seed.trim();
  return {
    text: values.text,
    negative_text:
      model.supports.negative_prompt && values.negativeText.trim() ? values.negativeText : undefined,
    model: model.id,
    seed: model.supports.seed && values.seedLocked && seed !== '' ? Number(seed) : undefined,
    lora_scale: model.supports.lora_scale ? values.loraScale : undefined,
    prompt_strength: model.supports.prompt_strength ? values.promptStrength : undefined,
    aspect_ratio:
      values.aspectRatio && model.aspect_ratios.includes(values.aspectRatio) ? values.aspectRatio : undefined,
    num_images: Math.min(Math.max(1, values.numImages), model.max_images),
  };
}

const randomSeed = () => Math.floor(Math.random() * Math.min(SEED_MAX, 2 ** 31));

export function GenerateForm({
  models,
  balance,
  onSpent,
}: {
  models: readonly ModelInfo[];
  /** The signed-in user's balance when known; undefined while loading (never blocks). */
  balance: number | undefined;
  /** Called after the server accepted a job, with the balance after the charge. */
  onSpent?: (balance: number) => void;
}) {
  const { t } = useTranslation();
  const ids = useId();
  const form = useGenerateForm((s) => s);
  const formRef = useRef<HTMLFormElement>(null);
  const [errors, setErrors] = useState<FieldErrors>({});
  const create = useCreatePrompt({ onAccepted: (accepted) => onSpent?.(accepted.balance) });

  const model = findModel(models, form.model);

  // Pick the default model once the catalogue is here, and keep the other knobs within what the model offers.
  useEffect(() => {
    const chosen = model ?? defaultModel(models);
    if (!chosen) return;
    const patch: Partial<GenerateFormValues> = {};
    if (chosen.id !== form.model) patch.model = chosen.id;
    if (!form.aspectRatio || !chosen.aspect_ratios.includes(form.aspectRatio))
      patch.aspectRatio = chosen.aspect_ratios[0] ?? null;
    if (form.numImages > chosen.max_images) patch.numImages = chosen.max_images;
    if (Object.keys(patch).length) generateFormStore.getState().set(patch);
  }, [model, models, form.model, form.aspectRatio, form.numImages]);

  const cost = totalCost(model, form.numImages);
  const afford = affordability(cost, balance);
  const unavailable = model && !model.available;
  const overLength = form.text.length > PROMPT_MAX_LENGTH;
  const serverError = create.error instanceof ApiError ? create.error : null;
  const canSubmit = !!model && !unavailable && afford.ok && !create.isPending;

  const counts = useMemo(
    () => Array.from({ length: Math.max(1, model?.max_images ?? 1) }, (_, i) => i + 1),
    [model?.max_images],
  );

  function submit(event?: FormEvent) {
    event?.preventDefault();
    if (!model || !canSubmit) return;
    const request = buildPromptRequest(generateFormStore.getState(), model);
    const parsed = PromptRequest.safeParse(request);
    if (!parsed.success) {
      const next: FieldErrors = {};
      for (const issue of parsed.error.issues) {
        const field = String(issue.path[0] ?? 'form') as keyof FieldErrors;
        next[field] ??= field === 'seed' ? t('generate.form.seedInvalid', { max: SEED_MAX }) : issue.message;
      }
      setErrors(next);
      return;
    }
    setErrors({});
    create.mutate(request);
  }

  function onPromptKeyDown(event: KeyboardEvent<HTMLTextAreaElement>) {
    if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      formRef.current?.requestSubmit();
    }
  }

  const set = generateFormStore.getState().set;
  const textError = errors.text;

  return (
    <form
      ref={formRef}
      onSubmit={submit}
      noValidate
      aria-label={t('generate.form.label')}
      className="flex flex-col gap-6"
      data-testid="generate-form"
    >
      <div>
        <div className="mb-2 flex items-baseline justify-between gap-2">
          <label htmlFor={`${ids}-prompt`} className="text-sm font-semibold">
            {t('generate.form.prompt')}
          </label>
          <span
            data-testid="prompt-count"
            className={`text-xs tabular-nums ${overLength ? 'font-semibold text-red-600 dark:text-red-400' : 'text-zinc-500 dark:text-zinc-400'}`}
          >
            {t('generate.form.count', { count: form.text.length, max: PROMPT_MAX_LENGTH })}
          </span>
        </div>
        <textarea
          id={`${ids}-prompt`}
          name="text"
          rows={4}
          value={form.text}
          onChange={(e) => set({ text: e.target.value })}
          onKeyDown={onPromptKeyDown}
          placeholder={t('generate.form.promptPlaceholder')}
          aria-invalid={!!textError || overLength}
          aria-describedby={`${ids}-prompt-hint${textError ? ` ${ids}-prompt-error` : ''}`}
          className="block w-full resize-y rounded-2xl border border-zinc-300 bg-white px-4 py-3 text-base shadow-sm placeholder:text-zinc-400 focus:border-brand-500 focus:ring-2 focus:ring-brand-500/30 focus:outline-none aria-invalid:border-red-400 dark:border-zinc-700 dark:bg-zinc-950 dark:placeholder:text-zinc-500"
        />
        <p id={`${ids}-prompt-hint`} className="mt-1.5 text-xs text-zinc-500 dark:text-zinc-400">
          {t('generate.form.shortcut', { key: isMac() ? '⌘' : 'Ctrl' })}
        </p>
        {textError && (
          <p id={`${ids}-prompt-error`} className="mt-1 text-sm text-red-600 dark:text-red-400">
            {textError}
          </p>
        )}
      </div>

      <ModelPicker models={models} value={form.model} onChange={(id) => set({ model: id })} />

      {model && model.provider === 'local' && (
        <p
          data-testid="local-engine-note"
          className="rounded-2xl bg-emerald-50 px-4 py-3 text-sm text-emerald-900 ring-1 ring-emerald-200 ring-inset dark:bg-emerald-500/10 dark:text-emerald-100 dark:ring-emerald-500/30"
        >
          {t('generate.localEngineNote')}
        </p>
      )}

      {model && model.aspect_ratios.length > 0 && (
        <AspectRatioPicker
          options={model.aspect_ratios}
          value={form.aspectRatio}
          onChange={(ratio) => set({ aspectRatio: ratio })}
        />
      )}

      {model && (
        <fieldset>
          <legend className="mb-2 text-sm font-semibold">{t('generate.form.numImages')}</legend>
          <div className="inline-flex rounded-xl bg-zinc-100 p-1 dark:bg-zinc-800">
            {counts.map((n) => (
              <label
                key={n}
                className={`cursor-pointer rounded-lg px-4 py-1.5 text-sm font-semibold tabular-nums transition has-focus-visible:outline-2 has-focus-visible:outline-brand-500 ${
                  form.numImages === n
                    ? 'bg-white text-zinc-900 shadow-sm dark:bg-zinc-950 dark:text-white'
                    : 'text-zinc-600 hover:text-zinc-900 dark:text-zinc-400 dark:hover:text-white'
                }`}
              >
                <input
                  type="radio"
                  name="num_images"
                  value={n}
                  checked={form.numImages === n}
                  onChange={() => set({ numImages: n })}
                  className="sr-only"
                />
                {n}
              </label>
            ))}
          </div>
        </fieldset>
      )}

      {model?.supports.lora_scale && (
        <Slider
          id={`${ids}-lora`}
          label={t('generate.form.loraScale')}
          hint={t('generate.form.loraScaleHint')}
          min={0}
          max={2}
          step={0.05}
          value={form.loraScale}
          onChange={(v) => set({ loraScale: v })}
        />
      )}
      {model?.supports.prompt_strength && (
        <Slider
          id={`${ids}-strength`}
          label={t('generate.form.promptStrength')}
          hint={t('generate.form.promptStrengthHint')}
          min={0}
          max={1}
          step={0.05}
          value={form.promptStrength}
          onChange={(v) => set({ promptStrength: v })}
        />
      )}

      {model && (model.supports.negative_prompt || model.supports.seed) && (
        <details
          open={form.advancedOpen}
          onToggle={(e) => {
            const open = (e.currentTarget as HTMLDetailsElement).open;
            if (open !== generateFormStore.getState().advancedOpen) set({ advancedOpen: open });
          }}
          className="group rounded-2xl border border-zinc-200 dark:border-zinc-800"
        >
          <summary className="flex cursor-pointer list-none items-center justify-between px-4 py-3 text-sm font-semibold select-none [&::-webkit-details-marker]:hidden">
            {t('generate.form.advanced')}
            <span aria-hidden="true" className="text-zinc-400 transition group-open:rotate-180">
              ▾
            </span>
          </summary>
          <div className="flex flex-col gap-5 border-t border-zinc-200 px-4 pt-4 pb-5 dark:border-zinc-800">
            {model.supports.negative_prompt && (
              <div>
                <label htmlFor={`${ids}-negative`} className="mb-2 block text-sm font-semibold">
                  {t('generate.form.negative')}
                </label>
                <textarea
                  id={`${ids}-negative`}
                  name="negative_text"
                  rows={2}
                  value={form.negativeText}
                  onChange={(e) => set({ negativeText: e.target.value })}
                  onKeyDown={onPromptKeyDown}
                  placeholder={t('generate.form.negativePlaceholder')}
                  aria-invalid={!!errors.negative_text}
                  className="block w-full resize-y rounded-xl border border-zinc-300 bg-white px-3 py-2 text-sm placeholder:text-zinc-400 focus:border-brand-500 focus:ring-2 focus:ring-brand-500/30 focus:outline-none dark:border-zinc-700 dark:bg-zinc-950"
                />
                {errors.negative_text && (
                  <p className="mt-1 text-sm text-red-600 dark:text-red-400">{errors.negative_text}</p>
                )}
              </div>
            )}
            {model.supports.seed && (
              <div>
                <label htmlFor={`${ids}-seed`} className="mb-2 block text-sm font-semibold">
                  {t('generate.form.seed')}
                </label>
                <div className="flex gap-2">
                  <input
                    id={`${ids}-seed`}
                    name="seed"
                    inputMode="numeric"
                    value={form.seedLocked ? form.seed : ''}
                    placeholder={t('generate.form.seedRandom')}
                    disabled={!form.seedLocked}
                    onChange={(e) => set({ seed: e.target.value.replace(/[^\d]/g, '') })}
                    aria-invalid={!!errors.seed}
                    className="min-w-0 flex-1 rounded-xl border border-zinc-300 bg-white px-3 py-2 text-sm tabular-nums placeholder:text-zinc-400 focus:border-brand-500 focus:ring-2 focus:ring-brand-500/30 focus:outline-none disabled:bg-zinc-100 dark:border-zinc-700 dark:bg-zinc-950 dark:disabled:bg-zinc-900"
                  />
                  <button
                    type="button"
                    aria-pressed={form.seedLocked}
                    onClick={() =>
                      set(
                        form.seedLocked
                          ? { seedLocked: false }
                          : { seedLocked: true, seed: form.seed || String(randomSeed()) },
                      )
                    }
                    className={`inline-flex items-center gap-1.5 rounded-xl border px-3 py-2 text-sm font-semibold transition ${
                      form.seedLocked
                        ? 'border-brand-500 bg-brand-50 text-brand-700 dark:border-brand-400 dark:bg-brand-500/10 dark:text-brand-300'
                        : 'border-zinc-300 hover:bg-zinc-100 dark:border-zinc-700 dark:hover:bg-zinc-800'
                    }`}
                  >
                    {form.seedLocked ? <LockIcon /> : <UnlockIcon />}
                    {form.seedLocked ? t('generate.form.seedLocked') : t('generate.form.seedLock')}
                  </button>
                  {form.seedLocked && (
                    <button
                      type="button"
                      onClick={() => set({ seed: String(randomSeed()) })}
                      aria-label={t('generate.form.seedShuffle')}
                      title={t('generate.form.seedShuffle')}
                      className="rounded-xl border border-zinc-300 px-3 py-2 text-sm hover:bg-zinc-100 dark:border-zinc-700 dark:hover:bg-zinc-800"
                    >
                      <DiceIcon />
                    </button>
                  )}
                </div>
                <p className="mt-1.5 text-xs text-zinc-500 dark:text-zinc-400">
                  {form.seedLocked ? t('generate.form.seedLockedHint') : t('generate.form.seedRandomHint')}
                </p>
                {errors.seed && <p className="mt-1 text-sm text-red-600 dark:text-red-400">{errors.seed}</p>}
              </div>
            )}
          </div>
        </details>
      )}

      {/* The action stays on screen: the bottom of the screen while the form reaches past it on wide screens, a bar along the
          bottom of the screen on phones (the page leaves room for it). */}
      <div
        data-testid="generate-actions"
        className="flex flex-col gap-3 border-zinc-200 bg-white/95 backdrop-blur max-lg:fixed max-lg:inset-x-0 max-lg:bottom-0 max-lg:z-30 max-lg:border-t max-lg:px-4 max-lg:pt-3 max-lg:pb-[max(0.75rem,env(safe-area-inset-bottom))] max-lg:shadow-[0_-8px_24px_rgba(0,0,0,0.08)] lg:sticky lg:bottom-0 lg:-mx-6 lg:rounded-b-3xl lg:px-6 lg:pt-3 lg:pb-6 dark:border-zinc-800 dark:bg-zinc-900/95"
      >
        {unavailable && (
          <p role="status" className="text-sm text-amber-700 dark:text-amber-300">
            {model.unavailable_reason ?? t('generate.form.unavailable')}
          </p>
        )}
        {!afford.ok && (
          <p
            role="status"
            data-testid="insufficient-credits"
            className="rounded-2xl bg-amber-50 px-4 py-3 text-sm text-amber-900 ring-1 ring-amber-200 ring-inset dark:bg-amber-500/10 dark:text-amber-100 dark:ring-amber-500/30"
          >
            {t('generate.form.notEnough', { count: cost, balance: balance ?? 0, missing: afford.missing })}{' '}
            <Link to={paths.credits} className="font-semibold underline underline-offset-2">
              {t('generate.form.buyCredits')}
            </Link>
          </p>
        )}
        {(serverError || errors.model || errors.form) && (
          <div
            role="alert"
            data-testid="generate-error"
            className="flex items-start gap-2 rounded-2xl bg-red-50 px-4 py-3 text-sm text-red-900 ring-1 ring-red-200 ring-inset dark:bg-red-950/40 dark:text-red-100 dark:ring-red-900/60"
          >
            <AlertIcon className="mt-0.5 size-4 shrink-0" />
            <span>
              {serverError?.detail ?? errors.model ?? errors.form}
              {serverError?.status === 402 && (
                <>
                  {' '}
                  <Link to={paths.credits} className="font-semibold underline underline-offset-2">
                    {t('generate.form.buyCredits')}
                  </Link>
                </>
              )}
            </span>
          </div>
        )}
        <button
          type="submit"
          disabled={!canSubmit}
          data-testid="generate-submit"
          className="inline-flex items-center justify-center gap-2 rounded-2xl bg-gradient-to-r from-brand-600 to-fuchsia-600 px-5 py-3.5 text-base font-semibold text-white shadow-lg shadow-brand-600/25 transition hover:brightness-110 focus-visible:outline-2 disabled:cursor-not-allowed disabled:from-zinc-400 disabled:to-zinc-400 disabled:shadow-none dark:disabled:from-zinc-700 dark:disabled:to-zinc-700 dark:disabled:text-zinc-400"
        >
          {create.isPending ? (
            <Spinner className="size-5 border-white/40 border-t-white" />
          ) : (
            <SparklesIcon />
          )}
          {model ? t('generate.form.submit', { count: cost }) : t('generate.form.submitNoModel')}
        </button>
      </div>
    </form>
  );
}

function Slider({
  id,
  label,
  hint,
  min,
  max,
  step,
  value,
  onChange,
}: {
  id: string;
  label: string;
  hint: string;
  min: number;
  max: number;
  step: number;
  value: number;
  onChange: (value: number) => void;
}) {
  return (
    <div>
      <div className="mb-1 flex items-baseline justify-between">
        <label htmlFor={id} className="text-sm font-semibold">
          {label}
        </label>
        <output htmlFor={id} className="text-sm font-medium text-brand-700 tabular-nums dark:text-brand-300">
          {value.toFixed(2)}
        </output>
      </div>
      <input
        id={id}
        type="range"
        min={min}
        max={max}
        step={step}
        value={value}
        onChange={(e) => onChange(Number(e.target.value))}
        aria-describedby={`${id}-hint`}
        className="w-full accent-brand-600 dark:accent-brand-400"
      />
      <p id={`${id}-hint`} className="text-xs text-zinc-500 dark:text-zinc-400">
        {hint}
      </p>
    </div>
  );
}

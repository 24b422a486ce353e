import { useEffect, useId, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { PromptRequest, SEED_MAX, type ModelInfo } from '@lumina/contracts';
import { ActionBar, BuyCreditsLink, NotEnoughCredits, RequestError } from '@/components/forms/action-bar';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { SparklesIcon } from '@/components/ui/icons';
import { Spinner } from '@/components/ui/spinner';
import { ApiError } from '@/lib/api-client';
import { affordability } from '@/lib/credits/affordability';
import { useCreatePrompt } from '../api/create-prompt';
import { useGenerateForm, generateFormStore, type GenerateFormValues } from '../stores/generate-form';
import { totalCost } from '../utils/cost';
import { buildPromptRequest } from '../utils/prompt-request';
import { defaultModel, findModel } from '../utils/recipe';
import { AdvancedSettings } from './advanced-settings';
import { AspectRatioPicker } from './aspect-ratio-picker';
import { ImageCountPicker } from './image-count-picker';
import { ModelPicker } from './model-picker';
import { PromptField } from './prompt-field';
import { SettingSlider } from './setting-slider';
import { TriggerWordNote, withTriggerWord } from './trigger-word-note';

type FieldErrors = Partial<Record<'text' | 'negative_text' | 'seed' | 'model' | 'form', string>>;

/** The Generate form: prompt, model and its settings, the cost, and the action. */
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
  const serverError = create.error instanceof ApiError ? create.error : null;
  const canSubmit = !!model && !unavailable && afford.ok && !create.isPending;

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

  return (
    <form
      ref={formRef}
      onSubmit={submit}
      noValidate
      aria-label={t('generate.form.label')}
      className="flex flex-col gap-6"
      data-testid="generate-form"
    >
      <PromptField
        id={`${ids}-prompt`}
        value={form.text}
        error={errors.text}
        onChange={(text) => set({ text })}
        onKeyDown={onPromptKeyDown}
      />

      {model?.personal && (
        <TriggerWordNote
          word={model.personal.trigger_word}
          prompt={form.text}
          onAdd={() => set({ text: withTriggerWord(form.text, model.personal!.trigger_word) })}
        />
      )}

      <ModelPicker models={models} value={form.model} onChange={(id) => set({ model: id })} />

      {model && model.provider === 'local' && (
        <Alert tone="success" live={false} testId="local-engine-note">
          {t('generate.localEngineNote')}
        </Alert>
      )}

      {model && model.aspect_ratios.length > 0 && (
        <AspectRatioPicker
          options={model.aspect_ratios}
          value={form.aspectRatio}
          onChange={(ratio) => set({ aspectRatio: ratio })}
        />
      )}

      {model && (
        <ImageCountPicker
          max={model.max_images}
          value={form.numImages}
          onChange={(numImages) => set({ numImages })}
        />
      )}

      {model?.supports.lora_scale && (
        <SettingSlider
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
        <SettingSlider
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

      {model && (
        <AdvancedSettings
          ids={ids}
          model={model}
          form={form}
          errors={errors}
          onPromptKeyDown={onPromptKeyDown}
        />
      )}

      <ActionBar testId="generate-actions">
        {unavailable && (
          <p role="status" className="text-sm text-amber-700 dark:text-amber-300">
            {model.unavailable_reason ?? t('generate.form.unavailable')}
          </p>
        )}
        {!afford.ok && (
          <NotEnoughCredits page="generate.form" cost={cost} balance={balance} missing={afford.missing} />
        )}
        {(serverError || errors.model || errors.form) && (
          <RequestError testId="generate-error">
            {serverError?.detail ?? errors.model ?? errors.form}
            {serverError?.status === 402 && (
              <>
                {' '}
                <BuyCreditsLink>{t('generate.form.buyCredits')}</BuyCreditsLink>
              </>
            )}
          </RequestError>
        )}
        <Button look="cta" type="submit" disabled={!canSubmit} data-testid="generate-submit">
          {create.isPending ? (
            <Spinner className="size-5 border-white/40 border-t-white" />
          ) : (
            <SparklesIcon />
          )}
          {model ? t('generate.form.submit', { count: cost }) : t('generate.form.submitNoModel')}
        </Button>
      </ActionBar>
    </form>
  );
}

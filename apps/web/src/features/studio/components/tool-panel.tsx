import { useEffect, useId, useMemo, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { Link } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import {
  PROMPT_MAX_LENGTH,
  SEED_MAX,
  type ImageView,
  type JobView,
  type Tool,
  type ToolRunView,
} from '@lumina/contracts';
import { paths } from '@/config/paths';
import { AlertIcon, SparklesIcon } from '@/components/ui/icons';
import { ProviderSetupHint } from '@/components/ui/setup-hint';
import { Spinner } from '@/components/ui/spinner';
import { afterRender, reveal } from '@/lib/reveal';
import type { ToolCatalogue, ToolModel } from '../api/get-tools';
import { toolRunsQueryKey, useToolRuns } from '../api/list-runs';
import { InvalidFields, useStartTool } from '../api/start-tool';
import {
  galleryInput,
  inputSize,
  pickImage,
  studioStore,
  TOOL_SLOTS,
  useStudio,
  type InputSlot,
  type PickedInput,
  type ToolForms,
  type ToolRun,
} from '../stores/studio-store';
import { affordability, toolCost, upscaledSize } from '../utils/cost';
import { formsFromHistory, runFromHistory } from '../utils/history';
import { startBlocker } from '../utils/readiness';
import { GalleryPicker } from './gallery-picker';
import { ImageInput } from './image-input';
import { isActiveStatus, RunProgress, type RunState } from './run-progress';
import { RunHistory } from './run-history';
import { RunResult } from './run-result';
import { ToolModelPicker } from './tool-model-picker';
import { VideoList } from './video-list';

export interface ToolPanelProps {
  tool: Tool;
  catalogue: ToolCatalogue;
  /** The signed-in user's balance when known; undefined while loading (never blocks). */
  balance: number | undefined;
  /** The user's jobs from the live progress feed. */
  jobs: readonly JobView[] | undefined;
  /** After the server accepted a run, with the balance after the charge. */
  onSpent?: (balance: number) => void;
  /** After a cancel that refunded credits. */
  onRefunded?: () => void;
  /** After a run was accepted: the progress feed should look again. */
  onJobStarted?: () => void;
  onUseAs: (tool: Tool, image: ImageView) => void;
  /** An operator (ADMIN_EMAILS) also sees a set-up note when models are hidden for want of a provider key. */
  isOperator?: boolean;
}

/** The model a tool starts with: the catalogue's default when usable, else the first usable one. */
export function defaultToolModel(
  models: readonly ToolModel[],
  preferred: string | null,
): ToolModel | undefined {
  const byDefault = models.find((m) => m.id === preferred && m.available);
  return byDefault ?? models.find((m) => m.available) ?? models[0];
}

const field =
  'block w-full rounded-2xl border border-zinc-300 bg-white px-4 py-2.5 text-base shadow-sm placeholder:text-zinc-400 focus:border-brand-500 focus:ring-2 focus:ring-brand-500/30 focus:outline-none aria-invalid:border-red-400 dark:border-zinc-700 dark:bg-zinc-950 dark:placeholder:text-zinc-500';

type Errors = Partial<Record<string, string>>;

function FieldError({ id, message }: { id: string; message?: string }) {
  if (!message) return null;
  return (
    <p id={id} className="mt-1 text-sm text-red-600 dark:text-red-400">
      {message}
    </p>
  );
}

function TextField({
  label,
  value,
  onChange,
  placeholder,
  error,
  rows,
  hint,
  name,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  placeholder?: string;
  error?: string;
  rows?: number;
  hint?: string;
  name: string;
}) {
  const id = useId();
  const described =
    [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined;
  const common = {
    id,
    name,
    value,
    placeholder,
    'aria-invalid': Boolean(error) || value.length > PROMPT_MAX_LENGTH,
    'aria-describedby': described,
    className: `${field} ${rows ? 'resize-y' : ''}`,
  };
  return (
    <div>
      <label htmlFor={id} className="mb-2 block text-sm font-semibold">
        {label}
      </label>
      {rows ? (
        <textarea {...common} rows={rows} onChange={(e) => onChange(e.target.value)} />
      ) : (
        <input {...common} type="text" onChange={(e) => onChange(e.target.value)} />
      )}
      {hint && (
        <p id={`${id}-hint`} className="mt-1.5 text-xs text-zinc-500 dark:text-zinc-400">
          {hint}
        </p>
      )}
      <FieldError id={`${id}-error`} message={error} />
    </div>
  );
}

function Choice<T extends string | number>({
  legend,
  name,
  options,
  value,
  render,
  onChange,
}: {
  legend: string;
  name: string;
  options: readonly T[];
  value: T | null;
  render: (option: T) => ReactNode;
  onChange: (option: T) => void;
}) {
  return (
    <fieldset className="min-w-0">
      <legend className="mb-2 text-sm font-semibold">{legend}</legend>
      <div className="flex flex-wrap gap-2">
        {options.map((option) => (
          <label
            key={option}
            className={`cursor-pointer rounded-xl border px-3.5 py-2 text-sm font-semibold tabular-nums transition has-focus-visible:outline-2 has-focus-visible:outline-brand-500 ${
              option === value
                ? 'border-brand-500 bg-brand-50 text-brand-800 dark:border-brand-400 dark:bg-brand-500/15 dark:text-brand-200'
                : 'border-zinc-300 hover:border-brand-300 dark:border-zinc-700 dark:hover:border-brand-500/60'
            }`}
          >
            <input
              type="radio"
              name={name}
              value={String(option)}
              checked={option === value}
              onChange={() => onChange(option)}
              className="sr-only"
            />
            {render(option)}
          </label>
        ))}
      </div>
    </fieldset>
  );
}

/** One tool: its inputs and settings, the cost and Start on one side; progress and the result on the other. */
export function ToolPanel({
  tool,
  catalogue,
  balance,
  jobs,
  onSpent,
  onRefunded,
  onJobStarted,
  onUseAs,
  isOperator = false,
}: ToolPanelProps) {
  const { t } = useTranslation();
  const ids = useId();
  const queryClient = useQueryClient();
  const forms = useStudio((s) => s.forms);
  const inputsBySlot = useStudio((s) => s.inputs);
  const currentJobId = useStudio((s) => s.runs[tool]?.jobId);
  const [picking, setPicking] = useState<InputSlot | null>(null);
  const runColumn = useRef<HTMLElement>(null);
  const start = useStartTool({
    onAccepted: (accepted) => {
      onSpent?.(accepted.balance);
      onJobStarted?.();
      void queryClient.invalidateQueries({ queryKey: [...toolRunsQueryKey, tool] });
      // Progress and the result appear in the run column: bring it into view with the action.
      afterRender(() => {
        const wide = window.matchMedia?.('(min-width: 1024px)').matches ?? true;
        reveal(runColumn.current, { top: 80, bottom: wide ? 16 : 112 });
      });
    },
  });

  const info = catalogue.tools.find((entry) => entry.tool === tool);
  // Customers see only the models they can use; the operator is told what is hidden and why.
  const models = (info?.models ?? []).filter((m) => m.available);
  const hidden = (info?.models.length ?? 0) - models.length;
  const chosen = forms[tool].model;
  const model = models.find((m) => m.id === chosen) ?? defaultToolModel(models, info?.default_model ?? null);
  const aspectRatio =
    forms.product_holding.aspectRatio && catalogue.aspect_ratios.includes(forms.product_holding.aspectRatio)
      ? forms.product_holding.aspectRatio
      : (catalogue.aspect_ratios[0] ?? null);
  const resolved: ToolForms = { ...forms, product_holding: { ...forms.product_holding, aspectRatio } };
  const cost = toolCost(tool, model, catalogue.pricing, {
    factor: forms.upscale.factor,
    duration: forms.animate.duration,
  });
  const afford = affordability(cost, balance);
  const slots = TOOL_SLOTS[tool];
  const inputs = slots.map((slot) => inputsBySlot[slot]);
  const blocker = startBlocker({
    tool,
    hasInput: inputs.map(Boolean),
    model,
    affordable: afford.ok,
    busy: start.isPending,
  });
  const fieldErrors: Errors = start.error instanceof InvalidFields ? start.error.errors : {};
  const requestError = start.error && !(start.error instanceof InvalidFields) ? start.error : null;
  const set = <T extends Tool>(which: T, patch: Partial<ToolForms[T]>) =>
    studioStore.getState().setForm(which, patch);

  // A refusal is about the inputs it was given: once they change (a file removed or replaced) it goes.
  const inputKeys = inputs.map((input) => input?.key ?? 0).join(',');
  const { reset } = start;
  useEffect(() => {
    reset();
  }, [inputKeys, reset]);

  /** Puts a past run's inputs and settings into the form; returns them for "Run again". */
  function loadRun(run: ToolRunView) {
    const store = studioStore.getState();
    const patch = formsFromHistory(
      run,
      store.forms,
      models.map((m) => m.id),
    );
    for (const which of Object.keys(patch) as Tool[]) store.setForm(which, patch[which] ?? {});
    const picked = run.inputs.map((image) => (image ? galleryInput(image) : null));
    slots.forEach((slot, i) => {
      const input = picked[i];
      if (input) store.setInput(slot, input);
    });
    return { forms: studioStore.getState().forms, inputs: picked };
  }

  function runAgain(run: ToolRunView) {
    const loaded = loadRun(run);
    const chosen = models.find((m) => m.id === loaded.forms[tool].model) ?? model;
    if (!chosen || loaded.inputs.some((input) => !input)) return;
    const loadedForms: ToolForms = {
      ...loaded.forms,
      product_holding: {
        ...loaded.forms.product_holding,
        aspectRatio: loaded.forms.product_holding.aspectRatio ?? aspectRatio,
      },
    };
    start.mutate({ tool, model: chosen.id, forms: loadedForms, inputs: loaded.inputs as PickedInput[] });
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    if (blocker || !model) return;
    start.mutate({ tool, model: model.id, forms: resolved, inputs: inputs as PickedInput[] });
  }

  const inputFor = (slot: InputSlot) => (
    <ImageInput
      key={slot}
      slot={slot}
      maxBytes={catalogue.upload_max_bytes}
      maxPixels={catalogue.upload_max_pixels}
      onChooseFromGallery={() => setPicking(slot)}
      compact={tool === 'product_holding'}
    />
  );

  return (
    <div className="grid grid-cols-1 items-start gap-8 max-lg:pb-28 lg:grid-cols-[minmax(0,27rem)_minmax(0,1fr)]">
      <section
        aria-labelledby={`${ids}-form`}
        data-testid="tool-form-panel"
        className="rounded-3xl border border-zinc-200 bg-white p-5 shadow-sm sm:p-6 lg:pb-0 dark:border-zinc-800 dark:bg-zinc-900"
      >
        <h2 id={`${ids}-form`} className="sr-only">
          {t('studio.form.label', { tool: t(`studio.tools.${tool}.name`) })}
        </h2>
        <form onSubmit={submit} noValidate className="flex flex-col gap-6" data-testid={`tool-form-${tool}`}>
          {isOperator && <ProviderSetupHint id="tools" hidden={hidden} />}
          {tool === 'product_holding' ? (
            <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-1">{slots.map(inputFor)}</div>
          ) : (
            slots.map(inputFor)
          )}

          {tool === 'edit' && (
            <>
              <TextField
                name="prompt"
                label={t('studio.form.prompt')}
                placeholder={t('studio.form.promptPlaceholder')}
                rows={3}
                value={forms.edit.prompt}
                onChange={(prompt) => set('edit', { prompt })}
                error={fieldErrors.prompt}
              />
              <TextField
                name="negative_prompt"
                label={t('studio.form.negative')}
                placeholder={t('studio.form.negativePlaceholder')}
                value={forms.edit.negativePrompt}
                onChange={(negativePrompt) => set('edit', { negativePrompt })}
                error={fieldErrors.negative_prompt}
              />
              <div>
                <div className="mb-1 flex items-baseline justify-between">
                  <label htmlFor={`${ids}-strength`} className="text-sm font-semibold">
                    {t('studio.form.strength')}
                  </label>
                  <output
                    htmlFor={`${ids}-strength`}
                    className="text-sm font-medium text-brand-700 tabular-nums dark:text-brand-300"
                  >
                    {forms.edit.strength.toFixed(2)}
                  </output>
                </div>
                <input
                  id={`${ids}-strength`}
                  type="range"
                  min={0.05}
                  max={1}
                  step={0.05}
                  value={forms.edit.strength}
                  onChange={(e) => set('edit', { strength: Number(e.target.value) })}
                  aria-describedby={`${ids}-strength-hint`}
                  className="w-full accent-brand-600 dark:accent-brand-400"
                />
                <p id={`${ids}-strength-hint`} className="text-xs text-zinc-500 dark:text-zinc-400">
                  {t('studio.form.strengthHint')}
                </p>
                <FieldError id={`${ids}-strength-error`} message={fieldErrors.strength} />
              </div>
              <TextField
                name="seed"
                label={t('studio.form.seed')}
                hint={t('studio.form.seedHint', { max: SEED_MAX })}
                value={forms.edit.seed}
                onChange={(seed) => set('edit', { seed: seed.replace(/[^\d]/g, '') })}
                error={fieldErrors.seed ? t('studio.form.seedInvalid', { max: SEED_MAX }) : undefined}
              />
            </>
          )}

          {tool === 'copy_style' && (
            <TextField
              name="description"
              label={t('studio.form.description')}
              placeholder={t('studio.form.descriptionPlaceholder')}
              rows={3}
              value={forms.copy_style.description}
              onChange={(description) => set('copy_style', { description })}
              error={fieldErrors.description}
            />
          )}

          {tool === 'product_holding' && (
            <>
              <Choice
                legend={t('studio.form.aspectRatio')}
                name={`${ids}-aspect`}
                options={catalogue.aspect_ratios}
                value={aspectRatio}
                render={(ratio) => ratio}
                onChange={(ratio) => set('product_holding', { aspectRatio: ratio })}
              />
              <FieldError id={`${ids}-aspect-error`} message={fieldErrors.aspect_ratio} />
              <TextField
                name="prompt"
                label={t('studio.form.productPrompt')}
                placeholder={t('studio.form.productPromptPlaceholder')}
                value={forms.product_holding.prompt}
                onChange={(prompt) => set('product_holding', { prompt })}
                error={fieldErrors.prompt}
              />
            </>
          )}

          {tool === 'upscale' && (
            <UpscaleFactor
              factors={catalogue.upscale_factors}
              value={forms.upscale.factor}
              input={inputs[0]}
              onChange={(factor) => set('upscale', { factor })}
            />
          )}

          {tool === 'animate' && (
            <>
              <TextField
                name="prompt"
                label={t('studio.form.motion')}
                placeholder={t('studio.form.motionPlaceholder')}
                value={forms.animate.prompt}
                onChange={(prompt) => set('animate', { prompt })}
                error={fieldErrors.prompt}
              />
              <Choice
                legend={t('studio.form.duration')}
                name={`${ids}-duration`}
                options={catalogue.animate_durations}
                value={forms.animate.duration}
                render={(seconds) => t('studio.form.seconds', { count: seconds })}
                onChange={(duration) => set('animate', { duration })}
              />
            </>
          )}

          {models.length > 0 && (
            <ToolModelPicker
              name={`${ids}-model`}
              models={models}
              value={model?.id}
              perSecond={tool === 'animate' && catalogue.pricing.animate_per_second}
              onChange={(id) => set(tool, { model: id })}
            />
          )}
          {model?.provider === 'local' && (
            <p
              data-testid="local-engine-note"
              className="rounded-2xl bg-emerald-50 px-4 py-3 text-sm text-emerald-900 ring-1 ring-emerald-200 ring-inset dark:bg-emerald-500/10 dark:text-emerald-100 dark:ring-emerald-500/30"
            >
              {t('studio.form.localNote')}
            </p>
          )}

          {/* The action stays on screen: the bottom of the screen while the form reaches past it on wide screens, a bar along
              the bottom of the screen on phones (the page leaves room for it). */}
          <div
            data-testid="tool-actions"
            className="flex flex-col gap-3 border-zinc-200 bg-white/95 backdrop-blur max-lg:fixed max-lg:inset-x-0 max-lg:bottom-0 max-lg:z-30 max-lg:border-t max-lg:px-4 max-lg:pt-3 max-lg:pb-[max(0.75rem,env(safe-area-inset-bottom))] max-lg:shadow-[0_-8px_24px_rgba(0,0,0,0.08)] lg:sticky lg:bottom-0 lg:-mx-6 lg:rounded-b-3xl lg:px-6 lg:pt-3 lg:pb-6 dark:border-zinc-800 dark:bg-zinc-900/95"
          >
            {!afford.ok && (
              <p
                role="status"
                data-testid="insufficient-credits"
                className="rounded-2xl bg-amber-50 px-4 py-3 text-sm text-amber-900 ring-1 ring-amber-200 ring-inset dark:bg-amber-500/10 dark:text-amber-100 dark:ring-amber-500/30"
              >
                {t('studio.form.notEnough', { count: cost, balance: balance ?? 0, missing: afford.missing })}{' '}
                <Link to={paths.credits} className="font-semibold underline underline-offset-2">
                  {t('studio.form.buyCredits')}
                </Link>
              </p>
            )}
            {requestError && (
              <div
                role="alert"
                data-testid="tool-error"
                className="flex items-start gap-2 rounded-2xl bg-red-50 px-4 py-3 text-sm text-red-900 ring-1 ring-red-200 ring-inset dark:bg-red-950/40 dark:text-red-100 dark:ring-red-900/60"
              >
                <AlertIcon className="mt-0.5 size-4 shrink-0" />
                <span>{requestError.message}</span>
              </div>
            )}
            <button
              type="submit"
              disabled={blocker !== null}
              aria-describedby={`${ids}-why`}
              data-testid="tool-submit"
              className="inline-flex items-center justify-center gap-2 rounded-2xl bg-gradient-to-r from-brand-600 to-fuchsia-600 px-5 py-3.5 text-base font-semibold text-white shadow-lg shadow-brand-600/25 transition hover:brightness-110 focus-visible:outline-2 disabled:cursor-not-allowed disabled:from-zinc-400 disabled:to-zinc-400 disabled:shadow-none dark:disabled:from-zinc-700 dark:disabled:to-zinc-700 dark:disabled:text-zinc-400"
            >
              {start.isPending ? (
                <Spinner className="size-5 border-white/40 border-t-white" />
              ) : (
                <SparklesIcon />
              )}
              {t(`studio.submit.${tool}`, { count: cost })}
            </button>
            <p
              id={`${ids}-why`}
              role="status"
              data-testid="tool-why"
              className="text-center text-xs text-zinc-500 dark:text-zinc-400"
            >
              {blocker
                ? t(`studio.form.blocked.${blocker}`)
                : balance !== undefined
                  ? t('studio.form.balance', { count: balance, after: balance - cost })
                  : ''}
            </p>
          </div>
        </form>
      </section>

      <section
        ref={runColumn}
        aria-labelledby={`${ids}-run`}
        className="flex min-w-0 scroll-mt-20 flex-col gap-6"
      >
        <RunColumn
          headingId={`${ids}-run`}
          tool={tool}
          jobs={jobs}
          onRefunded={onRefunded}
          onUseAs={onUseAs}
        />
        <RunHistory
          tool={tool}
          currentJobId={currentJobId}
          onUseSettings={(run) => {
            loadRun(run);
            if (typeof window !== 'undefined') window.scrollTo?.({ top: 0, behavior: 'smooth' });
          }}
          onRunAgain={runAgain}
          canRunAgain={() => afford.ok && !start.isPending && !!model}
        />
        {tool === 'animate' && <VideoList onUseAs={onUseAs} />}
      </section>

      {picking && (
        <GalleryPicker
          open
          title={t(`studio.input.${picking}`)}
          onClose={() => setPicking(null)}
          onPick={(image) => {
            pickImage(picking, image);
            setPicking(null);
          }}
        />
      )}
    </div>
  );
}

function UpscaleFactor({
  factors,
  value,
  input,
  onChange,
}: {
  factors: readonly number[];
  value: number;
  input: PickedInput | undefined;
  onChange: (factor: number) => void;
}) {
  const { t } = useTranslation();
  const size = inputSize(input);
  return (
    <div>
      <Choice
        legend={t('studio.form.factor')}
        name="upscale-factor"
        options={factors}
        value={value}
        render={(factor) => t('studio.form.factorOption', { factor })}
        onChange={onChange}
      />
      <p className="mt-2 text-sm text-zinc-600 tabular-nums dark:text-zinc-400" data-testid="upscale-target">
        {size
          ? t('studio.form.resultSize', {
              from: t('studio.result.size', size),
              to: t('studio.result.size', upscaledSize(size.width, size.height, value)),
            })
          : input
            ? t('studio.form.resultSizeLater')
            : null}
      </p>
    </div>
  );
}

function RunColumn({
  headingId,
  tool,
  jobs,
  onRefunded,
  onUseAs,
}: {
  headingId: string;
  tool: Tool;
  jobs: readonly JobView[] | undefined;
  onRefunded?: () => void;
  onUseAs: (tool: Tool, image: ImageView) => void;
}) {
  const { t } = useTranslation();
  const started = useStudio((s) => s.runs[tool]);
  // After a reload (or on another device) the newest run kept on the server is the result shown.
  const history = useToolRuns(tool);
  const newest = history.data?.pages[0]?.items[0];
  const fromServer = useMemo(() => (newest ? runFromHistory(newest) : undefined), [newest]);
  const run = started ?? fromServer;
  const [cancelled, setCancelled] = useState<JobView | null>(null);
  const job = run ? runState(run, jobs, cancelled) : null;
  return (
    <div className="rounded-3xl border border-zinc-200 bg-white p-5 shadow-sm sm:p-6 dark:border-zinc-800 dark:bg-zinc-900">
      <h2 id={headingId} className="mb-4 text-lg font-semibold">
        {t('studio.run.title')}
      </h2>
      {!run || !job ? (
        <div className="flex flex-col items-center gap-3 rounded-3xl border border-dashed border-zinc-300 px-6 py-14 text-center dark:border-zinc-700">
          <span className="flex size-12 items-center justify-center rounded-2xl bg-brand-100 text-2xl text-brand-700 dark:bg-brand-500/15 dark:text-brand-300">
            <SparklesIcon />
          </span>
          <p className="font-semibold">{t('studio.run.emptyTitle')}</p>
          <p className="max-w-sm text-sm text-zinc-600 dark:text-zinc-400">
            {t(`studio.tools.${tool}.hint`)}
          </p>
        </div>
      ) : (
        <div className="flex flex-col gap-5" data-testid="tool-run" data-tool={tool}>
          <RunProgress
            job={job}
            onCancelled={(answer) => {
              setCancelled(answer);
              if (answer.refunded) onRefunded?.();
            }}
          />
          <RunResult run={run} job={job} onUseAs={onUseAs} />
        </div>
      )}
    </div>
  );
}

/** The run's state: the feed's job (or the cancel answer while the feed still says active), else as accepted. */
export function runState(
  run: ToolRun,
  jobs: readonly JobView[] | undefined,
  cancelled: JobView | null,
): RunState {
  const fromFeed = jobs?.find((job) => job.id === run.jobId);
  if (cancelled?.id === run.jobId && (!fromFeed || isActiveStatus(fromFeed.status))) return cancelled;
  if (fromFeed) return fromFeed;
  return {
    id: run.jobId,
    status: run.acceptedStatus,
    percent: null,
    message: null,
    queue_position: null,
    error: run.known?.error ?? null,
    refunded: run.known?.refunded ?? false,
    cost: run.cost,
    image_ids: run.known?.imageIds ?? [],
  };
}

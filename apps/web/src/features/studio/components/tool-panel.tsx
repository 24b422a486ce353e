import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import {
  TOOL_DEFINITIONS,
  type ImageView,
  type JobView,
  type Tool,
  type ToolRunView,
} from '@lumina/contracts';
import { ActionBar, NotEnoughCredits, RequestError } from '@/components/forms/action-bar';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { SparklesIcon } from '@/components/ui/icons';
import { ProviderSetupHint } from '@/components/ui/setup-hint';
import { Spinner } from '@/components/ui/spinner';
import { affordability } from '@/lib/credits/affordability';
import { afterRender, reveal } from '@/lib/reveal';
import type { ToolCatalogue, ToolModel } from '../api/get-tools';
import { toolRunsQueryKey } from '../api/list-runs';
import { InvalidFields, useStartTool } from '../api/start-tool';
import { galleryInput, pickImage, studioStore, useStudio } from '../stores/studio-store';
import { webTool, type ToolForms } from '../tools';
import { toolCost } from '../utils/cost';
import { formsFromHistory } from '../utils/history';
import type { InputSlot, PickedInput } from '../utils/inputs';
import { startBlocker } from '../utils/readiness';
import type { FieldErrors } from '../utils/requests';
import { GalleryPicker } from './gallery-picker';
import { ImageInput } from './image-input';
import { RunColumn } from './run-column';
import { RunHistory } from './run-history';
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
  const definition = webTool(tool);
  const { Section } = definition;
  const form = definition.resolve?.(forms[tool], catalogue) ?? forms[tool];
  const resolved: ToolForms = { ...forms, [tool]: form };
  const cost = toolCost(tool, model, form);
  const afford = affordability(cost, balance);
  const slots = definition.inputs.map((input) => input.slot);
  const inputs = slots.map((slot) => inputsBySlot[slot]);
  const blocker = startBlocker({
    missing: definition.inputs.map((input) => input.missing),
    hasInput: inputs.map(Boolean),
    model,
    affordable: afford.ok,
    busy: start.isPending,
  });
  const fieldErrors: FieldErrors = start.error instanceof InvalidFields ? start.error.errors : {};
  const requestError = start.error && !(start.error instanceof InvalidFields) ? start.error : null;
  const set = (patch: Partial<ToolForms[Tool]>) => studioStore.getState().setForm(tool, patch);

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
    const loadedForm = definition.resolve?.(loaded.forms[tool], catalogue) ?? loaded.forms[tool];
    const loadedForms: ToolForms = { ...loaded.forms, [tool]: loadedForm };
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
      compact={definition.compactInputs}
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
          {definition.compactInputs ? (
            <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-1">{slots.map(inputFor)}</div>
          ) : (
            slots.map(inputFor)
          )}
          {Section && (
            <Section
              form={form}
              set={set}
              errors={fieldErrors}
              catalogue={catalogue}
              inputs={inputs}
              ids={ids}
            />
          )}

          {models.length > 0 && (
            <ToolModelPicker
              name={`${ids}-model`}
              models={models}
              value={model?.id}
              perSecond={TOOL_DEFINITIONS[tool].price.per === 'second'}
              onChange={(id) => set({ model: id })}
            />
          )}
          {model?.provider === 'local' && (
            <Alert tone="success" live={false} testId="local-engine-note">
              {t('studio.form.localNote')}
            </Alert>
          )}

          <ActionBar testId="tool-actions">
            {!afford.ok && (
              <NotEnoughCredits page="studio.form" cost={cost} balance={balance} missing={afford.missing} />
            )}
            {requestError && <RequestError testId="tool-error">{requestError.message}</RequestError>}
            <Button
              look="cta"
              type="submit"
              disabled={blocker !== null}
              aria-describedby={`${ids}-why`}
              data-testid="tool-submit"
            >
              {start.isPending ? (
                <Spinner className="size-5 border-white/40 border-t-white" />
              ) : (
                <SparklesIcon />
              )}
              {t(`studio.submit.${tool}`, { count: cost })}
            </Button>
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
          </ActionBar>
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
        {definition.result.kind === 'video' && <VideoList onUseAs={onUseAs} />}
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

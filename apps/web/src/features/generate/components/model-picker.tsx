import { useTranslation } from 'react-i18next';
import type { ModelInfo } from '@lumina/contracts';

const providerTone: Record<ModelInfo['provider'], string> = {
  local:
    'bg-emerald-50 text-emerald-700 ring-emerald-200 dark:bg-emerald-500/10 dark:text-emerald-300 dark:ring-emerald-500/30',
  fal: 'bg-sky-50 text-sky-700 ring-sky-200 dark:bg-sky-500/10 dark:text-sky-300 dark:ring-sky-500/30',
  replicate:
    'bg-amber-50 text-amber-700 ring-amber-200 dark:bg-amber-500/10 dark:text-amber-300 dark:ring-amber-500/30',
};

/** The catalogue as a radio group: each model with its provider and price; unavailable ones greyed with the reason. */
export function ModelPicker({
  models,
  value,
  onChange,
}: {
  models: readonly ModelInfo[];
  value: string | null;
  onChange: (id: string) => void;
}) {
  const { t } = useTranslation();
  // Usable models first; the rest stay listed (with why they cannot be used), in catalogue order.
  const ordered = [...models].sort((a, b) => Number(b.available) - Number(a.available));
  return (
    <fieldset>
      <legend className="mb-2 text-sm font-semibold">{t('generate.form.model')}</legend>
      <div className="grid gap-2 sm:grid-cols-2 lg:grid-cols-1">
        {ordered.map((model) => {
          const checked = model.id === value;
          const reasonId = `model-reason-${model.id}`;
          return (
            <label
              key={model.id}
              className={`relative flex cursor-pointer flex-col gap-1 rounded-2xl border text-left transition has-focus-visible:outline-2 has-focus-visible:outline-brand-500 ${model.available ? 'p-3' : 'px-3 py-2'} ${
                !model.available
                  ? 'cursor-not-allowed border-dashed border-zinc-300 opacity-70 dark:border-zinc-700'
                  : checked
                    ? 'border-brand-500 bg-brand-50/70 ring-2 ring-brand-500/30 dark:border-brand-400 dark:bg-brand-500/10'
                    : 'border-zinc-200 hover:border-brand-300 dark:border-zinc-700 dark:hover:border-brand-500/60'
              }`}
            >
              <input
                type="radio"
                name="model"
                value={model.id}
                checked={checked}
                disabled={!model.available}
                aria-describedby={model.available ? undefined : reasonId}
                onChange={() => onChange(model.id)}
                className="sr-only"
              />
              <span className="flex items-center justify-between gap-2">
                <span className="truncate text-sm font-semibold">{model.display_name}</span>
                <span className="shrink-0 text-xs font-medium text-zinc-500 tabular-nums dark:text-zinc-400">
                  {t('generate.form.perImage', { count: model.credit_cost })}
                </span>
              </span>
              <span className="flex items-center gap-2">
                <span
                  className={`shrink-0 rounded-full px-2 py-0.5 text-[11px] font-semibold whitespace-nowrap ring-1 ring-inset ${providerTone[model.provider]}`}
                >
                  {t(`generate.providers.${model.provider}`)}
                </span>
                {model.available && model.description && (
                  <span className="line-clamp-1 text-xs text-zinc-500 dark:text-zinc-400">
                    {model.description}
                  </span>
                )}
              </span>
              {!model.available && (
                <span id={reasonId} className="text-xs text-amber-700 dark:text-amber-300">
                  {model.unavailable_reason ?? t('generate.form.unavailable')}
                </span>
              )}
            </label>
          );
        })}
      </div>
    </fieldset>
  );
}

import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import type { ModelInfo } from '@lumina/contracts';
import { ModelOption } from '@/components/ui/model-option';

/**
 * The catalogue as a radio group: each model with its provider and price; unavailable ones greyed with
 * the reason. The person's own trained models follow the shared ones under their own heading.
 */
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
  const headingId = useId();
  // Usable models first; the rest stay listed (with why they cannot be used), in catalogue order.
  const ordered = [...models].sort((a, b) => Number(b.available) - Number(a.available));
  const shared = ordered.filter((m) => m.personal === null);
  const personal = ordered.filter((m) => m.personal !== null);
  const option = (model: ModelInfo) => (
    <ModelOption
      key={model.id}
      model={model}
      group="model"
      checked={model.id === value}
      price={t('generate.form.perImage', { count: model.credit_cost })}
      providerLabel={t(`generate.providers.${model.provider}`)}
      unavailableFallback={t('generate.form.unavailable')}
      onChange={onChange}
    />
  );
  return (
    <fieldset>
      <legend className="mb-2 text-sm font-semibold">{t('generate.form.model')}</legend>
      <div className="grid gap-2 sm:grid-cols-2 lg:grid-cols-1">{shared.map(option)}</div>
      {personal.length > 0 && (
        <div role="group" aria-labelledby={headingId} className="mt-4" data-testid="personal-models">
          <p
            id={headingId}
            className="mb-2 text-xs font-semibold tracking-wider text-zinc-500 uppercase dark:text-zinc-400"
          >
            {t('generate.form.yourModels')}
          </p>
          <div className="grid gap-2 sm:grid-cols-2 lg:grid-cols-1">{personal.map(option)}</div>
        </div>
      )}
    </fieldset>
  );
}

import { useTranslation } from 'react-i18next';
import type { ModelInfo } from '@lumina/contracts';
import { ModelOption } from '@/components/ui/model-option';

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
        {ordered.map((model) => (
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
        ))}
      </div>
    </fieldset>
  );
}

import { useTranslation } from 'react-i18next';
import { ModelOption } from '@/components/ui/model-option';
import type { ToolModel } from '../api/get-tools';

/** A tool's models as a radio group, each with its provider and price; unavailable ones greyed with the reason. */
export function ToolModelPicker({
  name,
  models,
  value,
  perSecond,
  onChange,
}: {
  name: string;
  models: readonly ToolModel[];
  value: string | undefined;
  /** Animate: prices are per second of video. */
  perSecond?: boolean;
  onChange: (id: string) => void;
}) {
  const { t } = useTranslation();
  const ordered = [...models].sort((a, b) => Number(b.available) - Number(a.available));
  return (
    <fieldset className="min-w-0">
      <legend className="mb-2 text-sm font-semibold">{t('studio.form.model')}</legend>
      <div className="grid grid-cols-1 gap-2">
        {ordered.map((model) => (
          <ModelOption
            key={model.id}
            model={model}
            group={name}
            checked={model.id === value}
            price={
              perSecond
                ? t('studio.form.perSecond', { count: model.credit_cost })
                : t('studio.form.perRun', { count: model.credit_cost })
            }
            providerLabel={t(`studio.providers.${model.provider}`)}
            unavailableFallback={t('studio.form.unavailable')}
            onChange={onChange}
          />
        ))}
      </div>
    </fieldset>
  );
}

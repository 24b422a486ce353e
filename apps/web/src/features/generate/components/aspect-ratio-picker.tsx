import { useTranslation } from 'react-i18next';
import type { AspectRatio } from '@lumina/contracts';
import { ratioBox } from '../utils/recipe';

export function AspectRatioPicker({
  options,
  value,
  onChange,
}: {
  options: readonly AspectRatio[];
  value: AspectRatio | null;
  onChange: (ratio: AspectRatio) => void;
}) {
  const { t } = useTranslation();
  return (
    <fieldset>
      <legend className="mb-2 text-sm font-semibold">{t('generate.form.aspectRatio')}</legend>
      <div className="flex flex-wrap gap-2">
        {options.map((ratio) => {
          const box = ratioBox(ratio, 16);
          const checked = ratio === value;
          return (
            <label
              key={ratio}
              className={`inline-flex cursor-pointer items-center gap-2 rounded-xl border px-3 py-1.5 text-sm font-medium tabular-nums transition has-focus-visible:outline-2 has-focus-visible:outline-brand-500 ${
                checked
                  ? 'border-brand-500 bg-brand-600 text-white dark:border-brand-400 dark:bg-brand-500 dark:text-zinc-950'
                  : 'border-zinc-200 hover:border-brand-300 dark:border-zinc-700 dark:hover:border-brand-500/60'
              }`}
            >
              <input
                type="radio"
                name="aspect_ratio"
                value={ratio}
                checked={checked}
                onChange={() => onChange(ratio)}
                className="sr-only"
              />
              <span className="flex size-4 items-center justify-center" aria-hidden="true">
                <span
                  className="rounded-[3px] border-[1.5px] border-current"
                  style={{ width: box.width, height: box.height }}
                />
              </span>
              {ratio}
            </label>
          );
        })}
      </div>
    </fieldset>
  );
}

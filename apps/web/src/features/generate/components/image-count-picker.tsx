import { useTranslation } from 'react-i18next';

/** How many images to make: 1 up to the model's most, as a segmented radio group. */
export function ImageCountPicker({
  max,
  value,
  onChange,
}: {
  max: number;
  value: number;
  onChange: (count: number) => void;
}) {
  const { t } = useTranslation();
  const counts = Array.from({ length: Math.max(1, max) }, (_, i) => i + 1);
  return (
    <fieldset>
      <legend className="mb-2 text-sm font-semibold">{t('generate.form.numImages')}</legend>
      <div className="inline-flex rounded-xl bg-zinc-100 p-1 dark:bg-zinc-800">
        {counts.map((n) => (
          <label
            key={n}
            className={`cursor-pointer rounded-lg px-4 py-1.5 text-sm font-semibold tabular-nums transition has-focus-visible:outline-2 has-focus-visible:outline-brand-500 ${
              value === n
                ? 'bg-white text-zinc-900 shadow-sm dark:bg-zinc-950 dark:text-white'
                : 'text-zinc-600 hover:text-zinc-900 dark:text-zinc-400 dark:hover:text-white'
            }`}
          >
            <input
              type="radio"
              name="num_images"
              value={n}
              checked={value === n}
              onChange={() => onChange(n)}
              className="sr-only"
            />
            {n}
          </label>
        ))}
      </div>
    </fieldset>
  );
}

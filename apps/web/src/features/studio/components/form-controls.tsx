import type { ReactNode } from 'react';
import { PROMPT_MAX_LENGTH } from '@lumina/contracts';
import { Field } from '@/components/ui/field';

const control =
  'block w-full rounded-2xl border border-zinc-300 bg-white px-4 py-2.5 text-base shadow-sm placeholder:text-zinc-400 focus:border-brand-500 focus:ring-2 focus:ring-brand-500/30 focus:outline-none aria-invalid:border-red-400 dark:border-zinc-700 dark:bg-zinc-950 dark:placeholder:text-zinc-500';

/** A tool's text setting: one line, or a text area when `rows` is given. */
export function TextField({
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
  return (
    <Field label={label} hint={hint} error={error}>
      {(wiring) => {
        const common = {
          ...wiring,
          name,
          value,
          placeholder,
          'aria-invalid': Boolean(error) || value.length > PROMPT_MAX_LENGTH,
          className: `${control} ${rows ? 'resize-y' : ''}`,
        };
        return rows ? (
          <textarea {...common} rows={rows} onChange={(e) => onChange(e.target.value)} />
        ) : (
          <input {...common} type="text" onChange={(e) => onChange(e.target.value)} />
        );
      }}
    </Field>
  );
}

/** A tool's setting with a few fixed options, as a row of radio chips. */
export function Choice<T extends string | number>({
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

import type { KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { PROMPT_MAX_LENGTH } from '@lumina/contracts';
import { FieldError } from '@/components/ui/field';

const isMac = () =>
  typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform || navigator.userAgent);

/** The prompt: a text area with its length against the limit, the submit shortcut and the error. */
export function PromptField({
  id,
  value,
  error,
  onChange,
  onKeyDown,
}: {
  id: string;
  value: string;
  error?: string;
  onChange: (text: string) => void;
  onKeyDown: (event: KeyboardEvent<HTMLTextAreaElement>) => void;
}) {
  const { t } = useTranslation();
  const overLength = value.length > PROMPT_MAX_LENGTH;
  return (
    <div>
      <div className="mb-2 flex items-baseline justify-between gap-2">
        <label htmlFor={id} className="text-sm font-semibold">
          {t('generate.form.prompt')}
        </label>
        <span
          data-testid="prompt-count"
          className={`text-xs tabular-nums ${overLength ? 'font-semibold text-red-600 dark:text-red-400' : 'text-zinc-500 dark:text-zinc-400'}`}
        >
          {t('generate.form.count', { count: value.length, max: PROMPT_MAX_LENGTH })}
        </span>
      </div>
      <textarea
        id={id}
        name="text"
        rows={4}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        onKeyDown={onKeyDown}
        placeholder={t('generate.form.promptPlaceholder')}
        aria-invalid={!!error || overLength}
        aria-describedby={`${id}-hint${error ? ` ${id}-error` : ''}`}
        className="block w-full resize-y rounded-2xl border border-zinc-300 bg-white px-4 py-3 text-base shadow-sm placeholder:text-zinc-400 focus:border-brand-500 focus:ring-2 focus:ring-brand-500/30 focus:outline-none aria-invalid:border-red-400 dark:border-zinc-700 dark:bg-zinc-950 dark:placeholder:text-zinc-500"
      />
      <p id={`${id}-hint`} className="mt-1.5 text-xs text-zinc-500 dark:text-zinc-400">
        {t('generate.form.shortcut', { key: isMac() ? '⌘' : 'Ctrl' })}
      </p>
      <FieldError id={`${id}-error`} message={error} />
    </div>
  );
}

import { useTranslation } from 'react-i18next';

/** Whether the prompt already names the trigger word (as a whole word, any case). */
export function hasTriggerWord(prompt: string, word: string): boolean {
  const escaped = word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`(^|[^A-Za-z0-9_])${escaped}($|[^A-Za-z0-9_])`, 'i').test(prompt);
}

/** The prompt with the trigger word put in front (once). */
export function withTriggerWord(prompt: string, word: string): string {
  if (hasTriggerWord(prompt, word)) return prompt;
  return prompt.trim() ? `${word} ${prompt.trimStart()}` : `${word} `;
}

/**
 * Beside the prompt when one of the person's trained models is picked: its trigger word, what it does,
 * and a button that puts it in the prompt when the prompt lacks it.
 */
export function TriggerWordNote({
  word,
  prompt,
  onAdd,
}: {
  word: string;
  prompt: string;
  onAdd: () => void;
}) {
  const { t } = useTranslation();
  const present = hasTriggerWord(prompt, word);
  return (
    <div
      data-testid="trigger-word-note"
      className="-mt-3 flex flex-wrap items-center gap-x-2 gap-y-1 rounded-xl bg-brand-50 px-3 py-2 text-xs text-brand-900 dark:bg-brand-500/10 dark:text-brand-100"
    >
      <span>
        {t('generate.form.triggerWord')}{' '}
        <code
          className="rounded bg-white px-1.5 py-0.5 font-mono text-zinc-900 dark:bg-zinc-900 dark:text-zinc-100"
          data-testid="trigger-word"
        >
          {word}
        </code>
      </span>
      <span className="text-brand-800/80 dark:text-brand-200/80">
        {present ? t('generate.form.triggerWordPresent') : t('generate.form.triggerWordHint')}
      </span>
      {!present && (
        <button
          type="button"
          onClick={onAdd}
          className="ml-auto font-semibold underline underline-offset-2"
          data-testid="trigger-word-add"
        >
          {t('generate.form.triggerWordAdd')}
        </button>
      )}
    </div>
  );
}

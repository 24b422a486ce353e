import type { KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { SEED_MAX, type ModelInfo } from '@lumina/contracts';
import { Field } from '@/components/ui/field';
import { DiceIcon, LockIcon, UnlockIcon } from '@/components/ui/icons';
import { generateFormStore, type GenerateFormValues } from '../stores/generate-form';

const randomSeed = () => Math.floor(Math.random() * Math.min(SEED_MAX, 2 ** 31));

/** The settings most people leave alone, folded away: the negative prompt and the seed, when the model takes them. */
export function AdvancedSettings({
  ids,
  model,
  form,
  errors,
  onPromptKeyDown,
}: {
  ids: string;
  model: ModelInfo;
  form: GenerateFormValues;
  errors: { negative_text?: string; seed?: string };
  onPromptKeyDown: (event: KeyboardEvent<HTMLTextAreaElement>) => void;
}) {
  const { t } = useTranslation();
  const set = generateFormStore.getState().set;
  if (!model.supports.negative_prompt && !model.supports.seed) return null;
  return (
    <details
      open={form.advancedOpen}
      onToggle={(e) => {
        const open = (e.currentTarget as HTMLDetailsElement).open;
        if (open !== generateFormStore.getState().advancedOpen) set({ advancedOpen: open });
      }}
      className="group rounded-2xl border border-zinc-200 dark:border-zinc-800"
    >
      <summary className="flex cursor-pointer list-none items-center justify-between px-4 py-3 text-sm font-semibold select-none [&::-webkit-details-marker]:hidden">
        {t('generate.form.advanced')}
        <span aria-hidden="true" className="text-zinc-400 transition group-open:rotate-180">
          ▾
        </span>
      </summary>
      <div className="flex flex-col gap-5 border-t border-zinc-200 px-4 pt-4 pb-5 dark:border-zinc-800">
        {model.supports.negative_prompt && (
          <Field id={`${ids}-negative`} label={t('generate.form.negative')} error={errors.negative_text}>
            {(wiring) => (
              <textarea
                {...wiring}
                name="negative_text"
                rows={2}
                value={form.negativeText}
                onChange={(e) => set({ negativeText: e.target.value })}
                onKeyDown={onPromptKeyDown}
                placeholder={t('generate.form.negativePlaceholder')}
                aria-invalid={!!errors.negative_text}
                className="block w-full resize-y rounded-xl border border-zinc-300 bg-white px-3 py-2 text-sm placeholder:text-zinc-400 focus:border-brand-500 focus:ring-2 focus:ring-brand-500/30 focus:outline-none dark:border-zinc-700 dark:bg-zinc-950"
              />
            )}
          </Field>
        )}
        {model.supports.seed && (
          <Field
            id={`${ids}-seed`}
            label={t('generate.form.seed')}
            hint={form.seedLocked ? t('generate.form.seedLockedHint') : t('generate.form.seedRandomHint')}
            error={errors.seed}
          >
            {(wiring) => (
              <div className="flex gap-2">
                <input
                  {...wiring}
                  name="seed"
                  inputMode="numeric"
                  value={form.seedLocked ? form.seed : ''}
                  placeholder={t('generate.form.seedRandom')}
                  disabled={!form.seedLocked}
                  onChange={(e) => set({ seed: e.target.value.replace(/[^\d]/g, '') })}
                  aria-invalid={!!errors.seed}
                  className="min-w-0 flex-1 rounded-xl border border-zinc-300 bg-white px-3 py-2 text-sm tabular-nums placeholder:text-zinc-400 focus:border-brand-500 focus:ring-2 focus:ring-brand-500/30 focus:outline-none disabled:bg-zinc-100 dark:border-zinc-700 dark:bg-zinc-950 dark:disabled:bg-zinc-900"
                />
                <button
                  type="button"
                  aria-pressed={form.seedLocked}
                  onClick={() =>
                    set(
                      form.seedLocked
                        ? { seedLocked: false }
                        : { seedLocked: true, seed: form.seed || String(randomSeed()) },
                    )
                  }
                  className={`inline-flex items-center gap-1.5 rounded-xl border px-3 py-2 text-sm font-semibold transition ${
                    form.seedLocked
                      ? 'border-brand-500 bg-brand-50 text-brand-700 dark:border-brand-400 dark:bg-brand-500/10 dark:text-brand-300'
                      : 'border-zinc-300 hover:bg-zinc-100 dark:border-zinc-700 dark:hover:bg-zinc-800'
                  }`}
                >
                  {form.seedLocked ? <LockIcon /> : <UnlockIcon />}
                  {form.seedLocked ? t('generate.form.seedLocked') : t('generate.form.seedLock')}
                </button>
                {form.seedLocked && (
                  <button
                    type="button"
                    onClick={() => set({ seed: String(randomSeed()) })}
                    aria-label={t('generate.form.seedShuffle')}
                    title={t('generate.form.seedShuffle')}
                    className="rounded-xl border border-zinc-300 px-3 py-2 text-sm hover:bg-zinc-100 dark:border-zinc-700 dark:hover:bg-zinc-800"
                  >
                    <DiceIcon />
                  </button>
                )}
              </div>
            )}
          </Field>
        )}
      </div>
    </details>
  );
}

import { useTranslation } from 'react-i18next';
import {
  EDIT_DEFAULT_STRENGTH,
  editImageContract,
  editImageFileContract,
  EditImageFileFields,
  SEED_MAX,
} from '@lumina/contracts';
import { FieldError } from '@/components/ui/field';
import { WandIcon } from '@/components/ui/icons';
import { api } from '@/lib/api-client';
import { TextField } from '../components/form-controls';
import { check, toFormData } from '../utils/requests';
import type { ToolSectionProps, WebTool } from './definition';

export interface EditForm {
  prompt: string;
  negativePrompt: string;
  strength: number;
  seed: string;
  model: string | null;
}

function EditSection({ form, set, errors, ids }: ToolSectionProps<EditForm>) {
  const { t } = useTranslation();
  return (
    <>
      <TextField
        name="prompt"
        label={t('studio.form.prompt')}
        placeholder={t('studio.form.promptPlaceholder')}
        rows={3}
        value={form.prompt}
        onChange={(prompt) => set({ prompt })}
        error={errors.prompt}
      />
      <TextField
        name="negative_prompt"
        label={t('studio.form.negative')}
        placeholder={t('studio.form.negativePlaceholder')}
        value={form.negativePrompt}
        onChange={(negativePrompt) => set({ negativePrompt })}
        error={errors.negative_prompt}
      />
      <div>
        <div className="mb-1 flex items-baseline justify-between">
          <label htmlFor={`${ids}-strength`} className="text-sm font-semibold">
            {t('studio.form.strength')}
          </label>
          <output
            htmlFor={`${ids}-strength`}
            className="text-sm font-medium text-brand-700 tabular-nums dark:text-brand-300"
          >
            {form.strength.toFixed(2)}
          </output>
        </div>
        <input
          id={`${ids}-strength`}
          type="range"
          min={0.05}
          max={1}
          step={0.05}
          value={form.strength}
          onChange={(e) => set({ strength: Number(e.target.value) })}
          aria-describedby={`${ids}-strength-hint`}
          className="w-full accent-brand-600 dark:accent-brand-400"
        />
        <p id={`${ids}-strength-hint`} className="text-xs text-zinc-500 dark:text-zinc-400">
          {t('studio.form.strengthHint')}
        </p>
        <FieldError id={`${ids}-strength-error`} message={errors.strength} />
      </div>
      <TextField
        name="seed"
        label={t('studio.form.seed')}
        hint={t('studio.form.seedHint', { max: SEED_MAX })}
        value={form.seed}
        onChange={(seed) => set({ seed: seed.replace(/[^\d]/g, '') })}
        error={errors.seed ? t('studio.form.seedInvalid', { max: SEED_MAX }) : undefined}
      />
    </>
  );
}

/** Edit: one image and a prompt; a fresh file goes up with the form, a stored image by its id. */
export const editTool: WebTool<EditForm> = {
  tool: 'edit',
  icon: <WandIcon />,
  inputs: [{ slot: 'edit', missing: 'noInput' }],
  initialForm: { prompt: '', negativePrompt: '', strength: EDIT_DEFAULT_STRENGTH, seed: '', model: null },
  Section: EditSection,
  fields: (form, model) =>
    check(
      EditImageFileFields.safeParse({
        prompt: form.prompt,
        negative_prompt: form.negativePrompt,
        strength: form.strength,
        seed: form.seed.trim(),
        model,
      }),
    ),
  send: async ({ fields, inputs, imageId }) => {
    const [first] = inputs;
    return first?.source === 'file' && !first.uploaded
      ? api.callForm(editImageFileContract, toFormData(fields, { image_file: first.file }))
      : api.call(editImageContract, {
          body: { ...(fields as { prompt: string }), image_id: await imageId(0) },
        });
  },
  fromHistory: (s, current) => ({
    prompt: s.prompt ?? '',
    negativePrompt: s.negative_prompt ?? '',
    strength: s.strength ?? current.strength,
    seed: s.seed !== null ? String(s.seed) : '',
  }),
  result: { kind: 'compare' },
  historyFact: (s) => (s.strength !== null ? `${Math.round(s.strength * 100)}%` : null),
};

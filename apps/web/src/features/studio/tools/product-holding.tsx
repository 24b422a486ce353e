import { useTranslation } from 'react-i18next';
import { productHoldingContract, ProductHoldingFields } from '@lumina/contracts';
import { FieldError } from '@/components/ui/field';
import { GiftIcon } from '@/components/ui/icons';
import { api } from '@/lib/api-client';
import { Choice, TextField } from '../components/form-controls';
import { inputImageId, type FileInput } from '../utils/inputs';
import { check, toFormData } from '../utils/requests';
import type { ToolSectionProps, WebTool } from './definition';

export interface ProductHoldingForm {
  aspectRatio: string | null;
  prompt: string;
  model: string | null;
}

function ProductHoldingSection({ form, set, errors, catalogue, ids }: ToolSectionProps<ProductHoldingForm>) {
  const { t } = useTranslation();
  return (
    <>
      <Choice
        legend={t('studio.form.aspectRatio')}
        name={`${ids}-aspect`}
        options={catalogue.aspect_ratios}
        value={form.aspectRatio}
        render={(ratio) => ratio}
        onChange={(ratio) => set({ aspectRatio: ratio })}
      />
      <FieldError id={`${ids}-aspect-error`} message={errors.aspect_ratio} />
      <TextField
        name="prompt"
        label={t('studio.form.productPrompt')}
        placeholder={t('studio.form.productPromptPlaceholder')}
        value={form.prompt}
        onChange={(prompt) => set({ prompt })}
        error={errors.prompt}
      />
    </>
  );
}

const SLOTS = ['person', 'product'] as const;

/** Product holding: a person photo and a product photo, each sent by id when stored, else as a file. */
export const productHoldingTool: WebTool<ProductHoldingForm> = {
  tool: 'product_holding',
  icon: <GiftIcon />,
  inputs: [
    { slot: 'person', missing: 'noPerson' },
    { slot: 'product', missing: 'noProduct' },
  ],
  compactInputs: true,
  initialForm: { aspectRatio: null, prompt: '', model: null },
  resolve: (form, catalogue) => ({
    ...form,
    aspectRatio:
      form.aspectRatio && catalogue.aspect_ratios.includes(form.aspectRatio)
        ? form.aspectRatio
        : (catalogue.aspect_ratios[0] ?? null),
  }),
  Section: ProductHoldingSection,
  fields: (form, model) =>
    check(
      ProductHoldingFields.pick({ aspect_ratio: true, prompt: true, model: true }).safeParse({
        aspect_ratio: form.aspectRatio,
        prompt: form.prompt,
        model,
      }),
    ),
  send: async ({ fields, inputs }) => {
    if (!inputs[1]) throw new Error('Add a product image first.');
    const ids: Record<string, string> = {};
    const files: Record<string, File> = {};
    SLOTS.forEach((name, index) => {
      const input = inputs[index]!;
      const id = inputImageId(input);
      if (id) ids[`${name}_image_id`] = id;
      else files[`${name}_file`] = (input as FileInput).file;
    });
    return api.callForm(productHoldingContract, toFormData({ ...fields, ...ids }, files));
  },
  runSettings: (form) => ({ aspectRatio: form.aspectRatio ?? undefined }),
  fromHistory: (s, current) => ({
    aspectRatio: s.aspect_ratio ?? current.aspectRatio,
    prompt: s.prompt ?? '',
  }),
  result: { kind: 'beside', captions: ['studio.result.person', 'studio.result.product'] },
};

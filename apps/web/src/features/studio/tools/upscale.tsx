import { useTranslation } from 'react-i18next';
import { upscaleContract, upscaledSize, UPSCALE_DEFAULT_FACTOR } from '@lumina/contracts';
import { ExpandIcon } from '@/components/ui/icons';
import { api } from '@/lib/api-client';
import { Choice } from '../components/form-controls';
import { inputSize } from '../utils/inputs';
import { check } from '../utils/requests';
import type { ToolSectionProps, WebTool } from './definition';

export interface UpscaleForm {
  factor: number;
  model: string | null;
}

function UpscaleSection({ form, set, catalogue, inputs }: ToolSectionProps<UpscaleForm>) {
  const { t } = useTranslation();
  const input = inputs[0];
  const size = inputSize(input);
  return (
    <div>
      <Choice
        legend={t('studio.form.factor')}
        name="upscale-factor"
        options={catalogue.upscale_factors}
        value={form.factor}
        render={(factor) => t('studio.form.factorOption', { factor })}
        onChange={(factor) => set({ factor })}
      />
      <p className="mt-2 text-sm text-zinc-600 tabular-nums dark:text-zinc-400" data-testid="upscale-target">
        {size
          ? t('studio.form.resultSize', {
              from: t('studio.result.size', size),
              to: t('studio.result.size', upscaledSize(size.width, size.height, form.factor)),
            })
          : input
            ? t('studio.form.resultSizeLater')
            : null}
      </p>
    </div>
  );
}

/** Upscale: one stored image (a file is uploaded first) made 2× or 4× larger. */
export const upscaleTool: WebTool<UpscaleForm> = {
  tool: 'upscale',
  icon: <ExpandIcon />,
  inputs: [{ slot: 'upscale', missing: 'noInput' }],
  initialForm: { factor: UPSCALE_DEFAULT_FACTOR, model: null },
  Section: UpscaleSection,
  fields: (form, model) => check({ success: true, data: { factor: form.factor, model } }),
  send: async ({ fields, model, imageId }) =>
    api.call(upscaleContract, {
      body: { image_id: await imageId(0), factor: fields.factor as 2 | 4, model },
    }),
  runSettings: (form) => ({ factor: form.factor }),
  fromHistory: (s, current) => ({ factor: s.factor ?? current.factor }),
  priceInput: (form) => ({ factor: form.factor }),
  result: { kind: 'compare', scaled: true },
};

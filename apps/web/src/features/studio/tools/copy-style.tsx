import { useTranslation } from 'react-i18next';
import { copyStyleContract, CopyStyleFields } from '@lumina/contracts';
import { PaletteIcon } from '@/components/ui/icons';
import { api } from '@/lib/api-client';
import { TextField } from '../components/form-controls';
import { check, toFormData } from '../utils/requests';
import type { ToolSectionProps, WebTool } from './definition';

export interface CopyStyleForm {
  description: string;
  model: string | null;
}

function CopyStyleSection({ form, set, errors }: ToolSectionProps<CopyStyleForm>) {
  const { t } = useTranslation();
  return (
    <TextField
      name="description"
      label={t('studio.form.description')}
      placeholder={t('studio.form.descriptionPlaceholder')}
      rows={3}
      value={form.description}
      onChange={(description) => set({ description })}
      error={errors.description}
    />
  );
}

/** Copy style: a style picture and a description of the new picture; the route takes files only. */
export const copyStyleTool: WebTool<CopyStyleForm> = {
  tool: 'copy_style',
  icon: <PaletteIcon />,
  inputs: [{ slot: 'copy_style', missing: 'noInput' }],
  initialForm: { description: '', model: null },
  Section: CopyStyleSection,
  fields: (form, model) => check(CopyStyleFields.safeParse({ description: form.description, model })),
  send: async ({ fields, file }) =>
    api.callForm(copyStyleContract, toFormData(fields, { image: await file(0) })),
  fromHistory: (s) => ({ description: s.description ?? '' }),
  result: { kind: 'beside', captions: ['studio.result.style'] },
};

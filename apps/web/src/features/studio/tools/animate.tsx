import { useTranslation } from 'react-i18next';
import { ANIMATE_DEFAULT_DURATION, animateContract, AnimateRequest } from '@lumina/contracts';
import { FilmIcon } from '@/components/ui/icons';
import { api } from '@/lib/api-client';
import { Choice, TextField } from '../components/form-controls';
import { check } from '../utils/requests';
import type { ToolSectionProps, WebTool } from './definition';

export interface AnimateForm {
  prompt: string;
  duration: number;
  model: string | null;
}

function AnimateSection({ form, set, errors, catalogue, ids }: ToolSectionProps<AnimateForm>) {
  const { t } = useTranslation();
  return (
    <>
      <TextField
        name="prompt"
        label={t('studio.form.motion')}
        placeholder={t('studio.form.motionPlaceholder')}
        value={form.prompt}
        onChange={(prompt) => set({ prompt })}
        error={errors.prompt}
      />
      <Choice
        legend={t('studio.form.duration')}
        name={`${ids}-duration`}
        options={catalogue.animate_durations}
        value={form.duration}
        render={(seconds) => t('studio.form.seconds', { count: seconds })}
        onChange={(duration) => set({ duration })}
      />
    </>
  );
}

/** Animate: one stored image (a file is uploaded first) into a short video, priced per second. */
export const animateTool: WebTool<AnimateForm> = {
  tool: 'animate',
  icon: <FilmIcon />,
  inputs: [{ slot: 'animate', missing: 'noInput' }],
  initialForm: { prompt: '', duration: ANIMATE_DEFAULT_DURATION, model: null },
  Section: AnimateSection,
  fields: (form, model) =>
    check(
      AnimateRequest.pick({ prompt: true, duration: true, model: true }).safeParse({
        prompt: form.prompt,
        duration: form.duration,
        model,
      }),
    ),
  send: async ({ fields, model, imageId }) =>
    api.call(animateContract, {
      body: {
        image_id: await imageId(0),
        prompt: fields.prompt as string | undefined,
        duration: fields.duration as 5 | 10,
        model,
      },
    }),
  runSettings: (form) => ({ duration: form.duration }),
  fromHistory: (s, current) => ({ prompt: s.prompt ?? '', duration: s.duration ?? current.duration }),
  priceInput: (form) => ({ durationSeconds: form.duration }),
  result: { kind: 'video' },
};

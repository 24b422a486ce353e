import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  animateContract,
  copyStyleContract,
  editImageContract,
  editImageFileContract,
  productHoldingContract,
  upscaleContract,
  type ImageView,
  type Tool,
} from '@lumina/contracts';
import { api, type CallResult } from '@/lib/api-client';
import {
  inputImageId,
  studioStore,
  TOOL_SLOTS,
  type FileInput,
  type InputSlot,
  type PickedInput,
  type ToolForms,
  type ToolRun,
} from '../stores/studio-store';
import { toFormData, toolFields } from '../utils/requests';
import { studioImagesKey } from './list-images';
import { uploadImage } from './upload-image';

export type JobAccepted = CallResult<typeof editImageContract>;

export interface StartToolInput {
  tool: Tool;
  model: string;
  forms: ToolForms;
  /** The tool's inputs in slot order (product holding: person, product). */
  inputs: PickedInput[];
}

/** Thrown when the form does not pass the contract's checks; nothing was sent. */
export class InvalidFields extends Error {
  override readonly name = 'InvalidFields';
  constructor(readonly errors: Partial<Record<string, string>>) {
    super(Object.values(errors)[0] ?? 'Check the form');
  }
}

function fileName(image: ImageView) {
  const extension = image.content_type.split('/')[1]?.split(/[+;]/)[0] ?? 'png';
  return `image-${image.id.slice(0, 8)}.${extension === 'jpeg' ? 'jpg' : extension}`;
}

/** The bytes of an input, for the tools that take files only (copy style). */
async function asFile(input: PickedInput, signal?: AbortSignal): Promise<File> {
  if (input.source === 'file') return input.file;
  const response = await fetch(input.image.url, { signal });
  if (!response.ok)
    throw new Error(`The image could not be read (${response.status}). Try picking it again.`);
  const blob = await response.blob();
  return new File([blob], fileName(input.image), { type: blob.type || input.image.content_type });
}

/**
 * Starts a tool run: uploads picked files first where the tool takes an image id (remembering the stored
 * copy on the input, so the next run reuses it), then calls the tool's endpoint.
 */
export async function startTool(
  { tool, model, forms, inputs }: StartToolInput,
  hooks: { onUploaded?: (slot: InputSlot, input: FileInput, image: ImageView) => void } = {},
): Promise<{ accepted: JobAccepted; inputs: PickedInput[] }> {
  const checked = toolFields(tool, forms, model);
  if (!checked.ok) throw new InvalidFields(checked.errors);
  const fields = checked.fields as Record<string, string | number | undefined>;
  const slots = TOOL_SLOTS[tool];
  const used = [...inputs];

  const imageId = async (index: number): Promise<string> => {
    const input = used[index] as PickedInput;
    const known = inputImageId(input);
    if (known) return known;
    const file = input as FileInput;
    const image = await uploadImage(file.file);
    used[index] = { ...file, uploaded: image };
    hooks.onUploaded?.(slots[index] as InputSlot, file, image);
    return image.id;
  };

  const [first, second] = used;
  if (!first) throw new Error('Add an image first.');
  let accepted: JobAccepted;
  switch (tool) {
    case 'edit':
      accepted =
        first.source === 'file' && !first.uploaded
          ? await api.callForm(editImageFileContract, toFormData(fields, { image_file: first.file }))
          : await api.call(editImageContract, {
              body: { ...(fields as { prompt: string }), image_id: await imageId(0) },
            });
      break;
    case 'copy_style':
      accepted = await api.callForm(copyStyleContract, toFormData(fields, { image: await asFile(first) }));
      break;
    case 'product_holding': {
      if (!second) throw new Error('Add a product image first.');
      const ids: Record<string, string> = {};
      const files: Record<string, File> = {};
      for (const [name, input] of [
        ['person', first],
        ['product', second],
      ] as const) {
        const id = inputImageId(input);
        if (id) ids[`${name}_image_id`] = id;
        else files[`${name}_file`] = (input as FileInput).file;
      }
      accepted = await api.callForm(productHoldingContract, toFormData({ ...fields, ...ids }, files));
      break;
    }
    case 'upscale':
      accepted = await api.call(upscaleContract, {
        body: { image_id: await imageId(0), factor: fields.factor as 2 | 4, model },
      });
      break;
    case 'animate':
      accepted = await api.call(animateContract, {
        body: {
          image_id: await imageId(0),
          prompt: fields.prompt as string | undefined,
          duration: fields.duration as 5 | 10,
          model,
        },
      });
      break;
  }
  return { accepted, inputs: used };
}

/** Starts a run and records it in the studio store, so the tool's panel follows its progress and result. */
export function useStartTool({ onAccepted }: { onAccepted?: (accepted: JobAccepted) => void } = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: StartToolInput) =>
      startTool(input, {
        onUploaded: (slot, file, image) => {
          studioStore.getState().patchFileInput(slot, file.key, { uploaded: image });
          void queryClient.invalidateQueries({ queryKey: [...studioImagesKey, 'picker', 'uploads'] });
        },
      }),
    onSuccess: ({ accepted, inputs }, { tool, forms }) => {
      const run: ToolRun = {
        jobId: accepted.job_id,
        tool,
        cost: accepted.cost,
        acceptedStatus: accepted.status,
        inputs,
        factor: tool === 'upscale' ? forms.upscale.factor : undefined,
        aspectRatio:
          tool === 'product_holding' ? (forms.product_holding.aspectRatio ?? undefined) : undefined,
        duration: tool === 'animate' ? forms.animate.duration : undefined,
      };
      studioStore.getState().setRun(tool, run);
      onAccepted?.(accepted);
    },
  });
}

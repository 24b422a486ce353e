import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type { ImageView, JobAccepted as JobAcceptedSchema, Tool } from '@lumina/contracts';
import { studioStore } from '../stores/studio-store';
import { webTool, type ToolForms } from '../tools';
import {
  inputImageId,
  type FileInput,
  type InputSlot,
  type PickedInput,
  type ToolRun,
} from '../utils/inputs';
import { studioImagesKey } from './list-images';
import { uploadImage } from './upload-image';

export type JobAccepted = z.infer<typeof JobAcceptedSchema>;

export interface StartToolInput {
  tool: Tool;
  model: string;
  forms: ToolForms;
  /** The tool's inputs in slot order. */
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

/** The bytes of an input, for the tools that take files only. */
async function asFile(input: PickedInput, signal?: AbortSignal): Promise<File> {
  if (input.source === 'file') return input.file;
  const response = await fetch(input.image.url, { signal });
  if (!response.ok)
    throw new Error(`The image could not be read (${response.status}). Try picking it again.`);
  const blob = await response.blob();
  return new File([blob], fileName(input.image), { type: blob.type || input.image.content_type });
}

/**
 * Starts a tool run: checks the form with the tool's contract, then lets the tool build its request,
 * uploading picked files first where it takes an image id (remembering the stored copy on the input, so
 * the next run reuses it).
 */
export async function startTool(
  { tool, model, forms, inputs }: StartToolInput,
  hooks: { onUploaded?: (slot: InputSlot, input: FileInput, image: ImageView) => void } = {},
): Promise<{ accepted: JobAccepted; inputs: PickedInput[] }> {
  const definition = webTool(tool);
  const checked = definition.fields(forms[tool], model);
  if (!checked.ok) throw new InvalidFields(checked.errors);
  const fields = checked.fields as Record<string, string | number | undefined>;
  const used = [...inputs];

  const imageId = async (index: number): Promise<string> => {
    const input = used[index] as PickedInput;
    const known = inputImageId(input);
    if (known) return known;
    const file = input as FileInput;
    const image = await uploadImage(file.file);
    used[index] = { ...file, uploaded: image };
    hooks.onUploaded?.(definition.inputs[index]!.slot, file, image);
    return image.id;
  };

  if (!used[0]) throw new Error('Add an image first.');
  const accepted = await definition.send({
    model,
    fields,
    inputs: used,
    imageId,
    file: (index) => asFile(used[index] as PickedInput),
  });
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
        ...webTool(tool).runSettings?.(forms[tool]),
      };
      studioStore.getState().setRun(tool, run);
      onAccepted?.(accepted);
    },
  });
}

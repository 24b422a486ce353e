import { contracts, EDIT_DEFAULT_STRENGTH, EditImageFileForm, editTool } from '@lumina/contracts';
import { readForm } from '../../uploads/multipart.ts';
import { fetchImageUrl } from '../fetch-image-url.ts';
import {
  NO_SETTINGS,
  requireFile,
  toolRoute,
  type ServerTool,
  type ToolRun,
  type ToolSource,
} from '../tool-definition.ts';

const { tool, slots } = editTool;
const [image] = slots;

/** An edit, whether the image came by id, URL or file: the same settings either way. */
function editRun(
  source: ToolSource,
  body: { prompt: string; negative_prompt?: string; strength?: number; seed?: number; model?: string },
): Omit<ToolRun, 'tool'> {
  return {
    model: body.model,
    sources: [source],
    seed: body.seed,
    settings: {
      ...NO_SETTINGS,
      prompt: body.prompt,
      negativePrompt: body.negative_prompt ?? null,
      strength: body.strength ?? EDIT_DEFAULT_STRENGTH,
    },
  };
}

export const edit: ServerTool = {
  tool,
  routes: [
    toolRoute(contracts.editImage, async ({ body }, { uploads }) => {
      const source: ToolSource = body.image_id
        ? { imageId: body.image_id }
        : {
            file: await fetchImageUrl(body.image_url!, {
              maxBytes: uploads.maxBytes,
              allowPrivate: uploads.allowPrivateUrls,
            }),
            field: image.urlField,
          };
      return editRun(source, body);
    }),
    toolRoute(contracts.editImageFile, async (request, { uploads }) => {
      const { fields, files } = await readForm(request, EditImageFileForm, uploads.maxBytes);
      return editRun(requireFile(files, image), fields);
    }),
  ],
  request: (input, [source], common) => ({
    ...common,
    tool,
    image: source!,
    prompt: input.prompt ?? '',
    negativePrompt: input.negativePrompt ?? undefined,
    strength: input.strength ?? EDIT_DEFAULT_STRENGTH,
  }),
};

import { contracts, CopyStyleForm, copyStyleTool } from '@lumina/contracts';
import { readForm } from '../../uploads/multipart.ts';
import { NO_SETTINGS, requireFile, toolRoute, type ServerTool } from '../tool-definition.ts';

const { tool, slots } = copyStyleTool;
const [style] = slots;

export const copyStyle: ServerTool = {
  tool,
  routes: [
    toolRoute(contracts.copyStyle, async (request, { uploads }) => {
      const { fields, files } = await readForm(request, CopyStyleForm, uploads.maxBytes);
      return {
        model: fields.model,
        sources: [requireFile(files, style)],
        seed: fields.seed,
        settings: { ...NO_SETTINGS, description: fields.description },
      };
    }),
  ],
  request: (input, [source], common) => ({
    ...common,
    tool,
    style: source!,
    description: input.description ?? '',
  }),
};

import { z } from 'zod';

/** The one list of tool names; each tool's definition is in tools/<tool>.ts. */
export const TOOLS = ['edit', 'copy_style', 'product_holding', 'upscale', 'animate'] as const;
/** The tools whose runs make images (the others make a video). */
export const IMAGE_TOOLS = ['edit', 'copy_style', 'product_holding', 'upscale'] as const;

/** "a, b or c", for messages that list the choices. */
export const listChoices = (choices: readonly string[]) =>
  choices.length < 2 ? choices.join('') : `${choices.slice(0, -1).join(', ')} or ${choices.at(-1)}`;
export const Tool = z.enum(TOOLS);
export type Tool = z.infer<typeof Tool>;

/** How a tool output was made, stored on the image (`recipe`) so it can be explained and repeated. */
export const ToolRecipe = z
  .object({
    tool: Tool,
    /** The images the tool worked from, in order (edit: the original; product holding: person, product). */
    source_image_ids: z.array(z.uuid()),
    strength: z.number().optional(),
    factor: z.int().optional(),
    aspect_ratio: z.string().optional(),
    duration: z.number().optional(),
    description: z.string().optional(),
  })
  .meta({ id: 'ToolRecipe' });
export type ToolRecipe = z.infer<typeof ToolRecipe>;

import { z } from 'zod';

export const TOOLS = ['edit', 'copy_style', 'product_holding', 'upscale', 'animate'] as const;
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

import { TOOLS, type ImageView, type Tool } from '@lumina/contracts';

/** The tool that made an image, or null for generated images and uploads. */
export function toolOf(image: Pick<ImageView, 'kind' | 'recipe'>): Tool | null {
  if (image.recipe) return image.recipe.tool;
  return (TOOLS as readonly string[]).includes(image.kind) ? (image.kind as Tool) : null;
}

/** The tools an image can be handed to from the gallery, in the order they are offered. */
export const STUDIO_TOOLS = ['edit', 'upscale', 'animate', 'copy_style'] as const satisfies readonly Tool[];

/** Hands an image to a Studio tool; the page decides how (the gallery feature does not know the Studio). */
export type OpenInStudio = (tool: Tool, image: ImageView) => void;

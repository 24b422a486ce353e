import { TOOLS, type ImageView, type Tool } from '@lumina/contracts';

/** The tool that made an image, or null for generated images and uploads. */
export function toolOf(image: Pick<ImageView, 'kind' | 'recipe'>): Tool | null {
  if (image.recipe) return image.recipe.tool;
  return (TOOLS as readonly string[]).includes(image.kind) ? (image.kind as Tool) : null;
}

/**
 * Hands an image to a Studio tool: the tools offered, in order, and what choosing one does. The page
 * supplies both (the gallery feature does not know the Studio).
 */
export interface OpenInStudio {
  tools: readonly Tool[];
  open: (tool: Tool, image: ImageView) => void;
}

import type { Tool } from '@lumina/contracts';
import { animateTool, type AnimateForm } from './animate';
import { copyStyleTool, type CopyStyleForm } from './copy-style';
import type { WebTool } from './definition';
import { editTool, type EditForm } from './edit';
import { productHoldingTool, type ProductHoldingForm } from './product-holding';
import { upscaleTool, type UpscaleForm } from './upscale';

/** Each tool's form, keyed by tool. */
export interface ToolForms {
  edit: EditForm;
  copy_style: CopyStyleForm;
  product_holding: ProductHoldingForm;
  upscale: UpscaleForm;
  animate: AnimateForm;
}

/** Every tool's web definition: the one place the web names a tool. Adding a tool adds a row here. */
export const WEB_TOOLS: { readonly [T in Tool]: WebTool<ToolForms[T]> } = {
  edit: editTool,
  copy_style: copyStyleTool,
  product_holding: productHoldingTool,
  upscale: upscaleTool,
  animate: animateTool,
};

/** A tool's definition with its form type widened, for code that handles any tool alike. */
export const webTool = (tool: Tool) => WEB_TOOLS[tool] as unknown as WebTool<ToolForms[Tool]>;

export const initialForms = Object.fromEntries(
  Object.values(WEB_TOOLS).map((definition) => [definition.tool, definition.initialForm]),
) as unknown as ToolForms;

/** The slot a tool's first image goes in (where an image sent from elsewhere lands). */
export const firstSlot = (tool: Tool) => WEB_TOOLS[tool].inputs[0]!.slot;

/** The tools an image can be handed to from elsewhere (the gallery, a job's results), in the order offered. */
export const HAND_OFF_TOOLS: readonly Tool[] = ['edit', 'upscale', 'animate', 'copy_style'];

import type { Tool } from '../tool-recipe.ts';
import { animateTool } from './animate.ts';
import { copyStyleTool } from './copy-style.ts';
import type { ToolDefinition } from './definition.ts';
import { editTool } from './edit.ts';
import { productHoldingTool } from './product-holding.ts';
import { upscaleTool } from './upscale.ts';

export * from './definition.ts';
export * from './edit.ts';
export * from './copy-style.ts';
export * from './product-holding.ts';
export * from './upscale.ts';
export * from './animate.ts';

/** Every tool's contract-layer definition, keyed by tool. */
export const TOOL_DEFINITIONS: { readonly [T in Tool]: ToolDefinition & { tool: T } } = {
  edit: editTool,
  copy_style: copyStyleTool,
  product_holding: productHoldingTool,
  upscale: upscaleTool,
  animate: animateTool,
};

import type { AdapterTool, ToolRequestCommon } from './adapter-tool.ts';
import { animate } from './animate.ts';
import { copyStyle } from './copy-style.ts';
import { edit } from './edit.ts';
import { productHolding } from './product-holding.ts';
import { upscale } from './upscale.ts';

/**
 * Every image tool at the vendor-adapter layer, keyed by the tool name of its requests; the only place
 * that lists them. The vendor adapters find a request's tool here (`adapterTool(request)`).
 */
export const ADAPTER_TOOLS = {
  edit,
  copy_style: copyStyle,
  product_holding: productHolding,
  upscale,
  animate,
} satisfies { [Name in string]: AdapterTool<ToolRequestCommon & { tool: Name }> };

export type ToolName = keyof typeof ADAPTER_TOOLS;

type RequestOf<Name extends ToolName> =
  (typeof ADAPTER_TOOLS)[Name] extends AdapterTool<infer Request, infer _Output> ? Request : never;

/** A tool request: a discriminated union on `tool`, one member per tool of the table. */
export type ToolRequest = { [Name in ToolName]: RequestOf<Name> }[ToolName];

/**
 * The definition of the request's tool. TypeScript cannot tie a union member to its own table entry
 * (it would call each mapping with every request type), so the lookup is typed here, once.
 */
export function adapterTool(request: ToolRequest): AdapterTool<ToolRequest> {
  return ADAPTER_TOOLS[request.tool] as AdapterTool<ToolRequest>;
}

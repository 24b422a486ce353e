import type { Contract } from '../contract.ts';
import type { PriceRule } from '../pricing.ts';
import type { Tool } from '../tool-recipe.ts';

/**
 * One image the tool works from. A slot is filled by an upload (`fileField`), by one of the person's
 * images (`idField`), or by either (or, on some routes, a web address, `urlField`): exactly one of them when both are offered.
 */
export interface ToolInputSlot {
  name: string;
  /** How the slot is named in messages and on the form ("the person photo"). */
  label: string;
  fileField?: string;
  idField?: string;
  /** A web address the server fetches and stores as an upload. */
  urlField?: string;
  required: boolean;
}

/** A tool at the contract layer: its routes, the images it takes, its options, defaults and price rule. */
export interface ToolDefinition {
  tool: Tool;
  /** The routes that start a run (a JSON route and, for some tools, a multipart one). */
  contracts: readonly Contract[];
  slots: readonly ToolInputSlot[];
  /** Settings a request may leave out, with the value used then. */
  defaults: Readonly<Record<string, number | string>>;
  price: PriceRule;
}

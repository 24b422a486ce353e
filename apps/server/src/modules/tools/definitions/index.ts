import type { ServerTool } from '../tool-definition.ts';
import { animate } from './animate.ts';
import { copyStyle } from './copy-style.ts';
import { edit } from './edit.ts';
import { productHolding } from './product-holding.ts';
import { upscale } from './upscale.ts';

/** Every tool's server side, in the order their routes are listed. */
export const SERVER_TOOLS: readonly ServerTool[] = [edit, copyStyle, productHolding, upscale, animate];

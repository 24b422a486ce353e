import type { Contract, Tool, ToolInputSlot } from '@lumina/contracts';
import type { InputImage, ToolRequest } from '../../adapters/providers/image-tools.ts';
import { AppError } from '../../errors.ts';
import type { ContractRequest } from '../../http/route.ts';
import type { IncomingFile } from '../uploads/multipart.ts';
import type { ToolJobInput } from './tool-recipe.ts';

/** One input of a tool: an image the person already has, or a new upload under a form field name. */
export type ToolSource = { imageId: string } | { file: IncomingFile; field: string };

/** What a request asks a tool to do: its model, its sources in slot order, its seed and settings. */
export interface ToolRun {
  tool: Tool;
  model?: string;
  sources: ToolSource[];
  seed?: number;
  settings: Omit<ToolJobInput, 'tool' | 'sourceImageIds' | 'seed'>;
  /** Checks the chosen existing images (sizes…) before anything is stored or charged; throws AppError. */
  check?: (images: Array<{ id: string; width: number; height: number }>) => void;
}

/** What a route hands its reader: the upload limits and whether private web addresses may be fetched. */
export interface ToolRouteContext {
  uploads: { maxBytes: number; maxPixels: number; allowPrivateUrls: boolean };
}

/** One route that starts a tool run, and how its request becomes that run. */
export interface ToolRoute {
  contract: Contract;
  read(request: ContractRequest<Contract>, ctx: ToolRouteContext): Promise<Omit<ToolRun, 'tool'>>;
}

/** A tool route typed by its contract (the request's body, params and query). */
export function toolRoute<C extends Contract>(
  contract: C,
  read: (request: ContractRequest<C>, ctx: ToolRouteContext) => Promise<Omit<ToolRun, 'tool'>>,
): ToolRoute {
  return { contract, read: read as ToolRoute['read'] };
}

/**
 * A tool on the server: the routes that start it (with their checks), and the provider request its
 * job makes from the stored settings and source images. (What it makes, images or a video, is its
 * adapter-layer definition's `output`.)
 */
export interface ServerTool {
  tool: Tool;
  routes: readonly ToolRoute[];
  request(
    input: ToolJobInput,
    sources: InputImage[],
    common: { providerModel: string; seed: number },
  ): ToolRequest;
}

/** Settings no tool has set: each tool fills in its own. */
export const NO_SETTINGS = {
  prompt: null,
  negativePrompt: null,
  description: null,
  strength: null,
  factor: null,
  aspectRatio: null,
  width: null,
  height: null,
  durationSeconds: null,
} as const;

type Files = Record<string, IncomingFile>;

/** A slot that takes an upload only: the file must be there. */
export function requireFile(files: Files, slot: ToolInputSlot): ToolSource {
  const field = slot.fileField!;
  const file = files[field];
  if (!file) throw new AppError('VALIDATION_FAILED', `Add ${slot.label} as the "${field}" file.`);
  return { file, field };
}

/** Exactly one of a slot's file field and image-id field: the upload, or an image the person already has. */
export function oneSource(files: Files, imageId: string | undefined, slot: ToolInputSlot): ToolSource {
  const fileField = slot.fileField!;
  const idField = slot.idField!;
  const file = files[fileField];
  if (file && imageId)
    throw new AppError(
      'VALIDATION_FAILED',
      `Give either ${fileField} or ${idField} for the ${slot.label}, not both.`,
    );
  if (file) return { file, field: fileField };
  if (imageId) return { imageId };
  throw new AppError(
    'VALIDATION_FAILED',
    `Add the ${slot.label}: upload ${fileField} or choose one with ${idField}.`,
  );
}

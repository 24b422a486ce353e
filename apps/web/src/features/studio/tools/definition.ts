import type { ReactNode } from 'react';
import type { z } from 'zod';
import type { JobAccepted, PriceInput, Tool, ToolRunView } from '@lumina/contracts';
import type { ToolCatalogue } from '../api/get-tools';
import type { InputSlot, PickedInput, ToolRun } from '../utils/inputs';
import type { StartBlocker } from '../utils/readiness';
import type { Checked, FieldErrors } from '../utils/requests';

/** Every tool form chooses a model; the rest of its fields are the tool's own. */
export interface ToolFormBase {
  model: string | null;
}

/** What a tool's form section is given: its form (defaults filled in), how to change it, and the errors. */
export interface ToolSectionProps<F extends ToolFormBase> {
  form: F;
  set: (patch: Partial<F>) => void;
  errors: FieldErrors;
  catalogue: ToolCatalogue;
  /** The tool's inputs in slot order (unfilled ones undefined). */
  inputs: readonly (PickedInput | undefined)[];
  /** Unique to this panel: a prefix for ids and radio-group names. */
  ids: string;
}

/** What a tool's request is built from: the checked fields, the model and the inputs. */
export interface RequestContext {
  model: string;
  fields: Record<string, string | number | undefined>;
  inputs: readonly PickedInput[];
  /** The server's id for input `index`, uploading it first when it is a file not stored yet. */
  imageId: (index: number) => Promise<string>;
  /** The bytes of input `index` (fetched when it is one of the person's images). */
  file: (index: number) => Promise<File>;
}

/** One image a tool takes: its slot, and why Start waits while it is empty. */
export interface ToolInput {
  slot: InputSlot;
  missing: StartBlocker;
}

/** How a finished run is shown. */
export type ResultLayout =
  /** Against its input (a before/after slider); `scaled` also says by how much it grew. */
  | { kind: 'compare'; scaled?: boolean }
  /** Beside its inputs, each captioned (translation keys, in slot order). */
  | { kind: 'beside'; captions: readonly string[] }
  | { kind: 'video' };

/**
 * A tool on the web: the images it takes, its form section, how its form becomes a request, and how its
 * runs are priced and shown. The contract side (routes, limits, price rule) is `TOOL_DEFINITIONS`.
 */
export interface WebTool<F extends ToolFormBase> {
  tool: Tool;
  /** The tab's icon. */
  icon: ReactNode;
  inputs: readonly ToolInput[];
  /** Lays the inputs out side by side with smaller previews (a tool that takes several). */
  compactInputs?: boolean;
  initialForm: F;
  /** Fills in what the form leaves to the catalogue (such as the first aspect ratio). */
  resolve?: (form: F, catalogue: ToolCatalogue) => F;
  /** The tool's own settings in the form (the inputs and the model picker are common to all). */
  Section?: (props: ToolSectionProps<F>) => ReactNode;
  /** The text fields the tool sends, checked with the contract's schema (wire names). */
  fields: (form: F, model: string) => Checked<Record<string, unknown>>;
  send: (request: RequestContext) => Promise<z.infer<typeof JobAccepted>>;
  /** The settings a run keeps for showing its result. */
  runSettings?: (form: F) => Pick<ToolRun, 'factor' | 'aspectRatio' | 'duration'>;
  /** The form a past run used (without the model, which the caller checks is still usable). */
  fromHistory: (settings: ToolRunView['settings'], current: F) => Omit<F, 'model'>;
  /** The settings the price depends on (`creditsFor` in the contracts). */
  priceInput?: (form: F) => Pick<PriceInput, 'factor' | 'durationSeconds'>;
  result: ResultLayout;
  /** A setting shown in the run history's one-line summary beyond the common ones. */
  historyFact?: (settings: ToolRunView['settings']) => string | null;
}

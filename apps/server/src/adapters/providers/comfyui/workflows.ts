import { readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { COMFYUI_CAPABILITIES, type ComfyuiCapability } from '../vendors.ts';

/**
 * ComfyUI workflows as data. A workflow file (`<name>.json`) holds an API-format graph (ComfyUI's
 * "Save (API)" export: `{"<node id>": {"class_type": …, "inputs": {…}}}`) and named input slots, each
 * mapped to a node id and one of its input names, so Lumina fills the person's prompt, seed, size,
 * LoRA, input image and strength into the graph without knowing the graph. A catalogue entry with
 * `provider: "comfyui"` names its workflow in `providerModel` (the file name without `.json`).
 *
 * Built-in workflows live next to this file in `workflows/`; an operator adds more (or replaces a
 * built-in one of the same name) in COMFYUI_WORKFLOWS_DIR. Every file is validated at boot.
 */

export const SLOT_NAMES = [
  'prompt',
  'negative',
  'seed',
  'width',
  'height',
  /** Images per run (EmptyLatentImage's batch_size). */
  'batch',
  /** The LoRA file name in ComfyUI's loras folder. */
  'lora',
  'lora_scale',
  /** An uploaded input image's name (LoadImage's `image`). */
  'image',
  /** 0..1: how far an edit may move from the input (KSampler's denoise). */
  'strength',
  /** The upscale factor (2 or 4), times the slot's `multiply` (e.g. 0.25 after a 4× model). */
  'factor',
] as const;
export type SlotName = (typeof SLOT_NAMES)[number];

const Target = z.object({
  node: z.string().min(1),
  input: z.string().min(1),
  /** Numbers are multiplied by this before they are written (e.g. factor 2 → scale_by 0.5). */
  multiply: z.number().positive().optional(),
});
type Target = z.infer<typeof Target>;

const Node = z.looseObject({ class_type: z.string().min(1), inputs: z.record(z.string(), z.unknown()) });

const WorkflowFile = z.object({
  description: z.string().optional(),
  graph: z.record(z.string(), Node).refine((g) => Object.keys(g).length > 0, 'the graph has no nodes'),
  slots: z.partialRecord(z.enum(SLOT_NAMES), z.union([Target, z.array(Target).min(1)])),
  /** The node whose images are the result (a SaveImage); every output node's images when left out. */
  output: z.string().optional(),
});

export interface Workflow {
  name: string;
  /** Where it was read from, for messages. */
  file: string;
  graph: Record<string, { class_type: string; inputs: Record<string, unknown> }>;
  slots: Partial<Record<SlotName, Target[]>>;
  output?: string;
}

export class WorkflowError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WorkflowError';
  }
}

export const BUILT_IN_WORKFLOWS_DIR = fileURLToPath(new URL('./workflows/', import.meta.url));

/** Reads and checks one workflow file; throws WorkflowError naming the file and the problem. */
export function readWorkflow(file: string): Workflow {
  const name = basename(file, '.json');
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new WorkflowError(`ComfyUI workflow ${file}: cannot read it as JSON (${(err as Error).message})`);
  }
  const parsed = WorkflowFile.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const at = issue.path.length ? ` at ${issue.path.join('.')}` : '';
    const hint = isUiFormat(raw) ? ' (this looks like a UI workflow: export it with "Save (API)")' : '';
    throw new WorkflowError(`ComfyUI workflow ${file}${at}: ${issue.message}${hint}`);
  }
  const { graph, output } = parsed.data;
  const slots: Workflow['slots'] = {};
  for (const [slot, target] of Object.entries(parsed.data.slots) as [SlotName, Target | Target[]][]) {
    const targets = Array.isArray(target) ? target : [target];
    for (const t of targets) {
      const node = graph[t.node];
      if (!node)
        throw new WorkflowError(
          `ComfyUI workflow ${file}: slot "${slot}" names node "${t.node}", which the graph does not have`,
        );
      if (!(t.input in node.inputs)) {
        throw new WorkflowError(
          `ComfyUI workflow ${file}: slot "${slot}" names input "${t.input}" of node "${t.node}" (${node.class_type}), which has no such input`,
        );
      }
    }
    slots[slot] = targets;
  }
  if (output !== undefined && !graph[output]) {
    throw new WorkflowError(
      `ComfyUI workflow ${file}: output names node "${output}", which the graph does not have`,
    );
  }
  return { name, file, graph, slots, output };
}

function isUiFormat(raw: unknown): boolean {
  return typeof raw === 'object' && raw !== null && 'nodes' in raw && 'links' in raw;
}

/** Every workflow: the built-in ones, then the operator's directory (a same-named file replaces a built-in one). */
export function loadWorkflows(operatorDir?: string): Map<string, Workflow> {
  const workflows = new Map<string, Workflow>();
  for (const dir of [BUILT_IN_WORKFLOWS_DIR, operatorDir]) {
    if (!dir) continue;
    let names: string[];
    try {
      names = readdirSync(dir).filter((f) => f.endsWith('.json'));
    } catch (err) {
      throw new WorkflowError(
        `COMFYUI_WORKFLOWS_DIR ${dir}: cannot list it (${(err as NodeJS.ErrnoException).code ?? String(err)})`,
      );
    }
    for (const file of names.sort()) {
      const workflow = readWorkflow(join(dir, file));
      workflows.set(workflow.name, workflow);
    }
  }
  return workflows;
}

/** The slots a catalogue capability needs its workflow to have: one entry per capability ComfyUI runs. */
export const REQUIRED_SLOTS: Record<ComfyuiCapability, SlotName[]> = {
  'text-to-image': ['prompt', 'seed'],
  edit: ['prompt', 'image'],
  upscale: ['image'],
  copy_style: ['prompt', 'image'],
};

const isComfyuiCapability = (capability: string): capability is ComfyuiCapability =>
  (COMFYUI_CAPABILITIES as readonly string[]).includes(capability);

/**
 * Why the catalogue's ComfyUI entries cannot run (undefined when they can): each names an existing
 * workflow with the slots its capability needs. For config validation at boot.
 */
export function comfyCatalogueProblem(
  models: readonly {
    id: string;
    provider: string;
    providerModel: string;
    capability: string;
    alternates?: readonly { provider: string; providerModel: string }[];
  }[],
  operatorDir?: string,
): string | undefined {
  let workflows: Map<string, Workflow>;
  try {
    workflows = loadWorkflows(operatorDir);
  } catch (err) {
    if (err instanceof WorkflowError) return err.message;
    throw err;
  }
  // A ComfyUI alternate of another vendor's model is checked like a ComfyUI model: found broken at
  // start-up, not when a failover reaches it.
  const runs = models.flatMap((m) =>
    [{ provider: m.provider, providerModel: m.providerModel }, ...(m.alternates ?? [])].map((r) => ({
      ...r,
      id: m.id,
      capability: m.capability,
    })),
  );
  for (const m of runs) {
    if (m.provider !== 'comfyui') continue;
    const workflow = workflows.get(m.providerModel);
    if (!workflow) {
      return `model "${m.id}" names the ComfyUI workflow "${m.providerModel}", but there is no ${m.providerModel}.json (workflows: ${[...workflows.keys()].join(', ')})`;
    }
    // The catalogue refuses other capabilities for ComfyUI first (vendorCannotRun); a direct caller hears the same.
    if (!isComfyuiCapability(m.capability)) return `model "${m.id}": ComfyUI cannot run ${m.capability}`;
    const required = REQUIRED_SLOTS[m.capability];
    const missing = required.filter((s) => !workflow.slots[s]);
    if (missing.length) {
      return `model "${m.id}": the ComfyUI workflow ${workflow.file} needs the slot(s) ${missing.join(', ')} for ${m.capability}`;
    }
  }
  return undefined;
}

export type SlotValues = Partial<Record<SlotName, string | number>>;

/**
 * A copy of the workflow's graph with the values written into their slots. A value for a slot the
 * workflow lacks is dropped unless it is one the result depends on (`lora`, `image`): those throw.
 */
export function fillWorkflow(workflow: Workflow, values: SlotValues): Workflow['graph'] {
  const graph = structuredClone(workflow.graph);
  for (const [slot, value] of Object.entries(values) as [SlotName, string | number | undefined][]) {
    if (value === undefined) continue;
    const targets = workflow.slots[slot];
    if (!targets) {
      if (slot === 'lora' || slot === 'image') {
        throw new WorkflowError(`the ComfyUI workflow "${workflow.name}" has no ${slot} slot`);
      }
      continue;
    }
    for (const t of targets) {
      graph[t.node]!.inputs[t.input] = typeof value === 'number' && t.multiply ? value * t.multiply : value;
    }
  }
  return graph;
}

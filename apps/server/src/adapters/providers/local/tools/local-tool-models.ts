import type { ToolName } from '../../image-tools.ts';
import { ADAPTER_TOOLS } from '../../tools/index.ts';

/** The local engine's model name for each image tool (the catalogue checks local entries against it). */
export const LOCAL_TOOL_MODELS = Object.fromEntries(
  Object.entries(ADAPTER_TOOLS).map(([name, tool]) => [name, tool.localModel]),
) as Record<ToolName, string>;

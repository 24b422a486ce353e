import { z } from 'zod';
import { defineContract } from './contract.ts';
import { JobStatus } from './generation.ts';
import { ImageView } from './images.ts';
import { listChoices, Tool, TOOLS } from './tool-recipe.ts';
import { PageCursor, pageLimit } from './text.ts';
import { VideoView } from './tools.ts';

/**
 * A person's Studio runs, kept on the server: every image-tool job with what went in (the source images,
 * the settings, the seed) and what came out, so a run can be found again after a reload and run again.
 */
export const ToolRunSettings = z
  .object({
    prompt: z.string().nullable(),
    negative_prompt: z.string().nullable(),
    description: z.string().nullable(),
    strength: z.number().nullable(),
    factor: z.int().nullable(),
    aspect_ratio: z.string().nullable(),
    duration: z.number().nullable(),
    seed: z.int().nullable(),
  })
  .meta({ id: 'ToolRunSettings' });
export type ToolRunSettings = z.infer<typeof ToolRunSettings>;

export const ToolRunView = z
  .object({
    id: z.uuid().describe('The job id'),
    tool: Tool,
    status: JobStatus,
    model: z.string(),
    cost: z.int(),
    refunded: z.boolean(),
    error: z.string().nullable(),
    settings: ToolRunSettings,
    inputs: z
      .array(ImageView.nullable())
      .describe('The source images in order (product holding: person, product); null once deleted'),
    outputs: z.array(ImageView).describe('The images the run made (none for animate, or once deleted)'),
    video: VideoView.nullable().describe('Animate: the video, once made'),
    created_at: z.iso.datetime(),
    finished_at: z.iso.datetime().nullable(),
  })
  .meta({ id: 'ToolRun' });
export type ToolRunView = z.infer<typeof ToolRunView>;

export const toolRunsContract = defineContract({
  method: 'GET',
  path: '/api/tools/runs',
  summary: "The user's Studio runs, newest first, optionally of one tool: inputs, settings and outputs",
  tags: ['tools'],
  query: z.object({
    tool: z.enum(TOOLS, { error: `tool must be ${listChoices(TOOLS)}` }).optional(),
    cursor: PageCursor.optional(),
    limit: pageLimit(50, 12),
  }),
  response: z
    .object({ items: z.array(ToolRunView), next_cursor: z.string().nullable() })
    .meta({ id: 'ToolRunPage' }),
});

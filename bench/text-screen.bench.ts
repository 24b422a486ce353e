/**
 * Text screening benchmark (content safety): the time to screen one prompt with the built-in screen
 * (`screenTextWithLexicon` and the policy's verdict: folding, obscenity's matcher over our lexicons,
 * scoring), against the baseline of validating the same POST /api/prompt body with its zod contract,
 * work every prompt request already does, measured side by side in one run (runs interleaved: validate,
 * screen, validate, screen, …). Prompts: a short ordinary one, a long ordinary one near the 2000-character
 * limit, a refused one, and an obfuscated one (fullwidth, zero-width, spelled out, leetspeak).
 * OpenAI moderation, when on, is a network call and is not measured here.
 *
 * Run: `npx tsx bench/text-screen.bench.ts [--runs 2000] [--no-write]`. Writes the "Text screening
 * (content safety)" section of docs/BENCHMARKS.md.
 */
import os from 'node:os';
import { PromptRequest } from '../packages/contracts/src/generation.ts';
import { DEFAULT_POLICY, judge } from '../apps/server/src/modules/safety/policy.ts';
import { screenTextWithLexicon } from '../apps/server/src/modules/safety/text-screen.ts';
import { machineNote, percentile, table, writeSection } from './support.ts';

const args = process.argv.slice(2);
const runsArg = args.indexOf('--runs');
const RUNS = runsArg >= 0 ? Number(args[runsArg + 1]) : 2000;
const WRITE = !args.includes('--no-write');
const TARGET_MS = 2;

const ordinaryLong = Array.from(
  { length: 40 },
  (_, i) => `a quiet harbour at dawn with boat number ${i}, soft light, `,
)
  .join('')
  .slice(0, 1990);
const PROMPTS: Array<[string, string]> = [
  ['short ordinary (28 chars)', 'a cat on a sofa, warm light'],
  [`long ordinary (${ordinaryLong.length} chars)`, ordinaryLong],
  ['refused (sexual)', 'a nude woman on a bed, photorealistic'],
  ['obfuscated', 'ａ n\u200bu d e w0man, s e x y, p0rn style'],
];

const us = (x: number) => (x < 1 ? `${(x * 1000).toFixed(0)} µs` : `${x.toFixed(2)} ms`);
const loadBefore = os.loadavg()[0]!;

function validate(text: string) {
  return PromptRequest.parse({ text, model: 'local/sd-turbo', num_images: 1 });
}
function screen(text: string) {
  return judge(DEFAULT_POLICY, screenTextWithLexicon({ texts: [text], hasPhoto: false }));
}

// Warm up both (JIT, the matcher's regular expressions).
for (let i = 0; i < 200; i++) {
  for (const [, text] of PROMPTS) {
    validate(text);
    screen(text);
  }
}

const rows: string[][] = [];
const ratios: string[][] = [];
let worstMedian = 0;
for (const [name, text] of PROMPTS) {
  const base: number[] = [];
  const timed: number[] = [];
  const verdict = screen(text).action;
  for (let i = 0; i < RUNS; i++) {
    let t = performance.now();
    validate(text);
    base.push(performance.now() - t);
    t = performance.now();
    screen(text);
    timed.push(performance.now() - t);
  }
  const baseMedian = percentile(base, 50);
  const median = percentile(timed, 50);
  worstMedian = Math.max(worstMedian, median);
  rows.push([
    name,
    'zod contract alone (baseline)',
    String(RUNS),
    us(baseMedian),
    us(percentile(base, 95)),
    '',
  ]);
  rows.push([name, 'built-in screen', String(RUNS), us(median), us(percentile(timed, 95)), verdict]);
  ratios.push([
    name,
    `${(median / baseMedian).toFixed(1)}×`,
    `${((baseMedian + median) / baseMedian).toFixed(1)}×`,
  ]);
}
const loadAfter = os.loadavg()[0]!;

const body = `
The time to screen one prompt with the built-in text screen (\`screenTextWithLexicon\` and \`judge\` in
\`apps/server/src/modules/safety/\`: folding invisible, fullwidth and spelled-out text, obscenity's matcher
over our lexicons, scoring), against the baseline of validating the same POST /api/prompt body with its
zod contract, which every prompt request already does, side by side in one run (runs interleaved).
Target: under ${TARGET_MS} ms at the median. OpenAI moderation, when on, adds a network call and is not
measured here. Command: \`npx tsx bench/text-screen.bench.ts\`.

${machineNote(loadBefore, loadAfter)}

${table(['prompt', 'what', 'runs', 'median', 'p95', 'verdict'], rows)}

As ratios against the baseline measured in the same run:

${table(['prompt', 'screen ÷ baseline', 'baseline + screen ÷ baseline'], ratios)}

The baseline is small (a few microseconds), so the ratios are large; what counts for the budget is the
absolute time, which grows with the prompt's length (the matcher scans the whole text once per pattern
group).

The baseline is small (a few microseconds), so the ratios are large; what counts for the budget is the
absolute time, which grows with the prompt's length (the matcher scans the whole text once per pattern
group).

Slowest median: ${us(worstMedian)} (target ${TARGET_MS} ms: ${worstMedian < TARGET_MS ? 'met' : '**missed**'}).
`;
console.log(body);
if (WRITE) writeSection('Text screening (content safety)', body);

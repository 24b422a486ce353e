import type { CreditHistoryEntry } from '@lumina/contracts';
import type { Storage } from '../../adapters/storage/storage.ts';
import type { Database } from '../../db/client.ts';
import type { CreditLedgerRow } from '../../db/schema/index.ts';
import { toHistoryEntry } from './credits.mapper.ts';
import { findHistoryReferences } from './credits.repository.ts';

/** How long the history's result links stay valid (the page refetches long before). */
const RESULT_URL_TTL_SECONDS = 3600;
/** The prompt's start shown in the history. */
export const PROMPT_EXCERPT_CHARS = 80;

const JOB_PREFIX = 'job:';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The start of a prompt, cut at a word boundary when one is near, with an ellipsis when cut. */
export function excerpt(text: string, max = PROMPT_EXCERPT_CHARS): string {
  const clean = text.replace(/\s+/g, ' ').trim();
  if (clean.length <= max) return clean;
  const cut = clean.slice(0, max);
  const space = cut.lastIndexOf(' ');
  return `${(space > max * 0.6 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

function promptOf(input: Record<string, unknown>): string | null {
  for (const key of ['prompt', 'description', 'text']) {
    const value = input[key];
    if (typeof value === 'string' && value.trim()) return value;
  }
  return null;
}

/**
 * Turns ledger rows into what a person recognises: the job an entry charged or refunded (its tool,
 * model, the prompt's start and a link to its first result) and the purchase an entry credited. Only
 * the owner's own jobs and payments are looked up, so a reference can never reveal someone else's.
 */
export async function describeEntries(
  deps: { db: Database; storage: Storage; modelName: (id: string) => string | undefined },
  userId: string,
  rows: readonly CreditLedgerRow[],
): Promise<CreditHistoryEntry[]> {
  const jobIds = new Set<string>();
  const paymentIds = new Set<string>();
  for (const row of rows) {
    const ref = row.reference ?? '';
    if (ref.startsWith(JOB_PREFIX) && UUID.test(ref.slice(JOB_PREFIX.length))) {
      jobIds.add(ref.slice(JOB_PREFIX.length));
    } else if (UUID.test(ref)) paymentIds.add(ref);
  }
  const { db, storage } = deps;
  const { jobRows, imageRows, videoRows, paymentRows } = await findHistoryReferences(db, userId, {
    jobIds: [...jobIds],
    paymentIds: [...paymentIds],
  });
  const jobById = new Map(jobRows.map((j) => [j.id, j]));
  const paymentById = new Map(paymentRows.map((p) => [p.id, p]));
  const resultByJob = new Map<
    string,
    { type: 'image' | 'video'; id: string; storageKey: string; thumbKey: string }
  >();
  for (const v of videoRows) {
    if (v.jobId)
      resultByJob.set(v.jobId, { type: 'video', id: v.id, storageKey: v.storageKey, thumbKey: v.posterKey });
  }
  for (const i of imageRows) {
    if (i.jobId && !resultByJob.has(i.jobId))
      resultByJob.set(i.jobId, {
        type: 'image',
        id: i.id,
        storageKey: i.storageKey,
        thumbKey: i.thumbnailKey,
      });
  }
  const sign = (key: string) => storage.url(key, { expiresInSeconds: RESULT_URL_TTL_SECONDS });

  return Promise.all(
    rows.map(async (row) => {
      const ref = row.reference ?? '';
      const job = ref.startsWith(JOB_PREFIX) ? jobById.get(ref.slice(JOB_PREFIX.length)) : undefined;
      const result = job && resultByJob.get(job.id);
      const prompt = job && promptOf(job.input);
      return toHistoryEntry(row, {
        job: job && {
          row: job,
          modelName: deps.modelName(job.modelId) ?? job.modelId,
          promptExcerpt: prompt ? excerpt(prompt) : null,
          result: result && {
            type: result.type,
            id: result.id,
            url: await sign(result.storageKey),
            thumbnailUrl: await sign(result.thumbKey),
          },
        },
        payment: paymentById.get(ref),
      });
    }),
  );
}

import type { DbOrTx } from '../../db/client.ts';
import type { JobRow } from '../../db/schema/index.ts';
import type { JobResult, OutputFields, OutputType } from './kinds.ts';

/**
 * Where a finished job's result goes: its files are stored first (slow, outside any transaction), then
 * its rows are added in the transaction that marks the job succeeded; a job that ended elsewhere
 * meanwhile discards the files. Each output type (images, video, model) is one store, given by its module.
 */
export interface OutputStore<Stored = unknown> {
  /** Stores the result's files; cleans up after itself when it throws. */
  store(job: JobRow, result: JobResult): Promise<Stored>;
  insert(
    tx: DbOrTx,
    job: JobRow,
    stored: Stored,
    meta: { fields: OutputFields; seed: number; durationMs: number | null },
  ): Promise<void>;
  discard(stored: Stored): Promise<void>;
  /** What the queue job reports (`{ images: [...] }`, `{ video }`, `{ model }`). */
  summary(stored: Stored): Record<string, unknown>;
}

export type OutputStores = Readonly<Record<OutputType, OutputStore>>;

import { createHash } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import pg from 'pg';
import * as schema from './schema/index.ts';
import { PostgresListener, type ListenOptions, type Listening } from './listener.ts';

export type Schema = typeof schema;
/** The one Drizzle API the rest of the code sees, whichever engine is underneath. */
export type Database = PgDatabase<PgQueryResultHKT, Schema>;
export type Tx = Parameters<Parameters<Database['transaction']>[0]>[0];
/** Repositories take either the database or an open transaction. */
export type DbOrTx = Database | Tx;

/** The minimal raw-SQL executor pg-boss accepts through its `db` option. */
export interface SqlExecutor {
  executeSql(text: string, values?: unknown[]): Promise<{ rows: unknown[] }>;
}

export interface DatabaseHandle {
  kind: 'pglite' | 'postgres';
  db: Database;
  /** Raw executor for pg-boss on the same connection(s). */
  executor: SqlExecutor;
  ping(): Promise<boolean>;
  /**
   * LISTEN on a channel: on PostgreSQL a connection of its own (db/listener.ts); on PGlite, which is
   * one process, notices arrive before the statement that sent them returns.
   */
  listen(channel: string, onMessage: (payload: string) => void, options: ListenOptions): Promise<Listening>;
  close(): Promise<void>;
}

export const migrationsFolder = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');

export interface DatabaseOptions {
  /** node-postgres connection string; when absent an embedded PGlite database is used. */
  url?: string;
  /** Where PGlite keeps its files; `memory://` for a throwaway database. */
  pgliteDir: string;
  poolSize?: number;
}

/** Opens the database and applies every committed migration. */
export async function openDatabase(options: DatabaseOptions): Promise<DatabaseHandle> {
  const handle = options.url
    ? openPostgres(options.url, options.poolSize ?? 10)
    : await openPglite(options.pgliteDir);
  try {
    await (handle.kind === 'pglite'
      ? migratePglite(handle.db as never, { migrationsFolder })
      : migratePg(handle.db as never, { migrationsFolder }));
  } catch (err) {
    await handle.close();
    throw err;
  }
  return handle;
}

async function openPglite(dir: string): Promise<DatabaseHandle> {
  if (!dir.startsWith('memory://')) mkdirSync(dir, { recursive: true });
  // PGlite is one Postgres session in this process. Its API queues statements and runs a
  // transaction exclusively, which is what keeps concurrent spends correct in embedded mode.
  const client = await PGlite.create(dir);
  const db = drizzlePglite(client, { schema }) as unknown as Database;
  return {
    kind: 'pglite',
    db,
    executor: pgliteExecutor(client),
    ping: async () => {
      await client.query('select 1');
      return true;
    },
    listen: async (channel, onMessage, options) => {
      const unlisten = await client.listen(channel, onMessage);
      let open = true;
      options.onState?.(true);
      return {
        get listening() {
          return open;
        },
        close: async () => {
          open = false;
          await unlisten();
        },
      };
    },
    close: () => client.close(),
  };
}

function openPostgres(url: string, poolSize: number): DatabaseHandle {
  const pool = new pg.Pool({ connectionString: url, max: poolSize });
  // An idle client losing its connection must not crash the process; the pool replaces it.
  pool.on('error', () => undefined);
  const db = drizzlePg(pool, { schema }) as unknown as Database;
  return {
    kind: 'postgres',
    db,
    executor: {
      executeSql: (text, values) => (values?.length ? pool.query(prepared(text, values)) : pool.query(text)),
    },
    ping: async () => {
      await pool.query('select 1');
      return true;
    },
    listen: (channel, onMessage, options) => PostgresListener.start(url, channel, onMessage, options),
    close: () => pool.end(),
  };
}

/** Statement names handed out so far, by SQL text (bounded: pg-boss's texts are a small fixed set). */
const statementNames = new Map<string, string>();
const MAX_STATEMENT_NAMES = 1000;

/**
 * pg-boss's statements as named (prepared) statements: PostgreSQL parses and plans each once per
 * connection instead of on every call. Its send, fetch and complete are large CTEs over a partitioned
 * table, and planning them was a good part of PostgreSQL's CPU time per job (send 0.9 -> 0.5 ms,
 * fetch 1.5 -> 1.1 ms measured). The name is a hash of the text, so the same text always gets the same
 * name on every connection. A connection pooler in front must support prepared statements
 * (PgBouncer 1.21+ with max_prepared_statements, or session mode).
 */
function prepared(text: string, values: unknown[]): pg.QueryConfig {
  let name = statementNames.get(text);
  if (!name && statementNames.size < MAX_STATEMENT_NAMES) {
    name = `lumina_${createHash('sha256').update(text).digest('hex').slice(0, 32)}`;
    statementNames.set(text, name);
  }
  return name ? { name, text, values } : { text, values };
}

interface PgliteLike {
  query(text: string, values?: unknown[]): Promise<{ rows: unknown[] }>;
  exec(text: string): Promise<Array<{ rows: unknown[] }>>;
}

/** pg-boss sends multi-statement scripts without values (migrations); PGlite runs those with exec. */
function pgliteExecutor(client: PgliteLike): SqlExecutor {
  return {
    async executeSql(text, values) {
      if (values && values.length > 0) return client.query(text, values);
      const results = await client.exec(text);
      return results.at(-1) ?? { rows: [] };
    },
  };
}

/**
 * The raw executor of an open Drizzle transaction, so a job can be enqueued in the same transaction as
 * the rows it is about (a rollback removes both). Drizzle keeps the connection (a pg PoolClient or a
 * PGlite Transaction) on its session; both answer `query(text, values)` with `{ rows }`.
 */
export function transactionExecutor(tx: Tx): SqlExecutor {
  const client = (tx as unknown as { session: { client: PgliteLike } }).session.client;
  if (!client || typeof client.query !== 'function') throw new Error('Unsupported transaction client');
  const pgClient = client instanceof pg.Client ? client : undefined;
  return {
    async executeSql(text, values) {
      if (pgClient && values && values.length > 0) return pgClient.query(prepared(text, values));
      if (values && values.length > 0) return client.query(text, values);
      if ('exec' in client && typeof client.exec === 'function') {
        const results = await client.exec(text);
        return results.at(-1) ?? { rows: [] };
      }
      return client.query(text);
    },
  };
}

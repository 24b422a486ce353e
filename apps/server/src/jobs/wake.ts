import { randomUUID } from 'node:crypto';
import pg from 'pg';
import type { Logger } from '../logger.ts';

/** The PostgreSQL channel on which a sent job wakes idle workers in every process. */
export const WAKE_CHANNEL = 'lumina_job_wake';

/** How long to wait before listening again after the connection was lost. */
const RECONNECT_MS = 1000;

/**
 * A queue's name in wake messages, so it can ignore its own (it wakes its own workers directly).
 * Payloads are `<job name>|<queue id>`.
 */
export const newWakeId = () => randomUUID();

export const wakePayload = (name: string, from: string) => `${name}|${from}`;

/**
 * Listens for job wake-ups from other processes (PostgreSQL LISTEN/NOTIFY) on a connection of its
 * own: a pool connection cannot hold a LISTEN. A NOTIFY sent inside the transaction that enqueues a
 * job is delivered when that transaction commits, so a worker never wakes for a job it cannot see
 * yet. Waking is only a shortcut: if the connection drops, workers still find jobs by polling while
 * it reconnects.
 */
export class WakeListener {
  private client: pg.Client | undefined;
  private retry: NodeJS.Timeout | undefined;
  private closed = false;

  private constructor(
    private readonly url: string,
    private readonly selfId: string,
    private readonly onWake: (name: string) => void,
    private readonly log: Logger,
  ) {}

  static async start(
    url: string,
    selfId: string,
    onWake: (name: string) => void,
    log: Logger,
  ): Promise<WakeListener> {
    const listener = new WakeListener(url, selfId, onWake, log);
    await listener.connect();
    return listener;
  }

  private async connect(): Promise<void> {
    const client = new pg.Client({ connectionString: this.url });
    client.on('notification', (message) => {
      const [name, from] = (message.payload ?? '').split('|');
      if (name && from !== this.selfId) this.onWake(name);
    });
    client.on('error', (err) => this.lost(client, err));
    client.on('end', () => this.lost(client));
    try {
      await client.connect();
      await client.query(`LISTEN ${WAKE_CHANNEL}`);
      this.client = client;
    } catch (err) {
      this.lost(client, err);
    }
  }

  private lost(client: pg.Client, err?: unknown): void {
    if (this.closed || (this.client && this.client !== client)) return;
    this.client = undefined;
    client.removeAllListeners();
    client.on('error', () => undefined);
    client.end().catch(() => undefined);
    if (this.retry) return;
    this.log.warn({ err }, 'job wake-up connection lost; polling until it is back');
    this.retry = setTimeout(() => {
      this.retry = undefined;
      if (!this.closed) void this.connect();
    }, RECONNECT_MS);
    this.retry.unref();
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.retry);
    const client = this.client;
    this.client = undefined;
    if (client) {
      client.removeAllListeners();
      client.on('error', () => undefined);
      await client.end().catch(() => undefined);
    }
  }
}

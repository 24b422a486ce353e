import pg from 'pg';
import type { Logger } from '../logger.ts';

/** How long to wait before listening again after the connection was lost. */
const RECONNECT_MS = 1000;

/** One LISTEN on a PostgreSQL channel, for as long as it is open. */
export interface Listening {
  /** False while the connection is down: notices sent meanwhile are lost, not queued. */
  readonly listening: boolean;
  close(): Promise<void>;
}

export interface ListenOptions {
  log: Logger;
  /** Logged at warn when the connection drops (it is re-opened every second until it is back). */
  lostMessage: string;
  /** Called with false when the connection drops and with true once it listens again. */
  onState?: (listening: boolean) => void;
}

/**
 * LISTEN on a connection of its own (a pool connection cannot hold one), re-opened after it drops.
 * A NOTIFY sent inside a transaction is delivered when that transaction commits, so a listener never
 * hears of a change it cannot see yet. Delivery is only as good as the connection: callers that
 * depend on every notice (caches) must treat `onState(false)` as "anything may have changed".
 */
export class PostgresListener implements Listening {
  private client: pg.Client | undefined;
  private retry: NodeJS.Timeout | undefined;
  private closed = false;

  private constructor(
    private readonly url: string,
    private readonly channel: string,
    private readonly onMessage: (payload: string) => void,
    private readonly options: ListenOptions,
  ) {}

  static async start(
    url: string,
    channel: string,
    onMessage: (payload: string) => void,
    options: ListenOptions,
  ): Promise<PostgresListener> {
    const listener = new PostgresListener(url, channel, onMessage, options);
    await listener.connect();
    return listener;
  }

  get listening(): boolean {
    return this.client !== undefined;
  }

  private async connect(): Promise<void> {
    const client = new pg.Client({ connectionString: this.url });
    client.on('notification', (message) => this.onMessage(message.payload ?? ''));
    client.on('error', (err) => this.lost(client, err));
    client.on('end', () => this.lost(client));
    try {
      await client.connect();
      await client.query(`LISTEN ${this.channel}`);
      if (this.closed) {
        await client.end().catch(() => undefined);
        return;
      }
      this.client = client;
      this.options.onState?.(true);
    } catch (err) {
      this.lost(client, err);
    }
  }

  private lost(client: pg.Client, err?: unknown): void {
    if (this.closed || (this.client && this.client !== client)) return;
    const wasListening = this.client !== undefined;
    this.client = undefined;
    client.removeAllListeners();
    client.on('error', () => undefined);
    client.end().catch(() => undefined);
    if (wasListening) this.options.onState?.(false);
    if (this.retry) return;
    this.options.log.warn({ err }, this.options.lostMessage);
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

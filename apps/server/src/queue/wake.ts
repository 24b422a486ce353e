import { randomUUID } from 'node:crypto';
import { PostgresListener, type Listening } from '../db/listener.ts';
import type { Logger } from '../logger.ts';

/** The PostgreSQL channel on which a sent job wakes idle workers in every process. */
export const WAKE_CHANNEL = 'lumina_job_wake';

/**
 * A queue's name in wake messages, so it can ignore its own (it wakes its own workers directly).
 * Payloads are `<job name>|<queue id>`.
 */
export const newWakeId = () => randomUUID();

export const wakePayload = (name: string, from: string) => `${name}|${from}`;

/**
 * Listens for job wake-ups from other processes (PostgreSQL LISTEN/NOTIFY). A NOTIFY sent inside the
 * transaction that enqueues a job is delivered when that transaction commits, so a worker never wakes
 * for a job it cannot see yet. Waking is only a shortcut: if the connection drops, workers still find
 * jobs by polling while it reconnects.
 */
export function listenForWakes(
  url: string,
  selfId: string,
  onWake: (name: string) => void,
  log: Logger,
): Promise<Listening> {
  return PostgresListener.start(
    url,
    WAKE_CHANNEL,
    (payload) => {
      const [name, from] = payload.split('|');
      if (name && from !== selfId) onWake(name);
    },
    { log, lostMessage: 'job wake-up connection lost; polling until it is back' },
  );
}

import { EventEmitter } from 'node:events';

/**
 * Tells this process's open progress streams that a user's jobs changed, so they push at once. Other
 * processes (separate workers) are picked up by the streams' own short re-check, so this is a
 * latency shortcut, never the only path.
 */
export class ProgressBus {
  private readonly emitter = new EventEmitter();

  /** `also` hears every change too (the gallery cache drops the person's listings). */
  constructor(private readonly also?: (userId: string) => void) {
    // One listener per open stream; many tabs are normal.
    this.emitter.setMaxListeners(0);
  }

  changed(userId: string): void {
    this.also?.(userId);
    this.emitter.emit(userId);
  }

  subscribe(userId: string, listener: () => void): () => void {
    this.emitter.on(userId, listener);
    return () => this.emitter.off(userId, listener);
  }
}

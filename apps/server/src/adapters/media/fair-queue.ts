/**
 * Work run a few at a time, where the waiting turns are shared out between owners rather than taken
 * first come, first served: when a slot frees, the next turn goes to the owner who has waited longest
 * since their last turn (whoever never had one first). One owner with many items waiting then takes
 * every other turn at most, and someone else's single item waits about one item, not the whole line.
 * p-limit and its kind are first come, first served; fairness between owners is the point here.
 */
export class FairQueue {
  #running = 0;
  #waiting = 0;
  #turns = 0;
  /** Each owner's waiting work, oldest first; an owner is here only while something of theirs waits. */
  readonly #lanes = new Map<string, Array<() => void>>();
  /** When each owner with work running or waiting last got a turn (the turn counter then). */
  readonly #lastTurn = new Map<string, number>();
  /** Work running per owner, so an owner is forgotten once they have nothing running or waiting. */
  readonly #runningFor = new Map<string, number>();

  constructor(readonly concurrency: number) {}

  /** Work running now. */
  get active(): number {
    return this.#running;
  }

  /** Work waiting for a slot, all owners together. */
  get pending(): number {
    return this.#waiting;
  }

  /** Work of this owner waiting for a slot. */
  pendingFor(owner: string): number {
    return this.#lanes.get(owner)?.length ?? 0;
  }

  /** Whether work handed to `run` now would wait rather than start at once. */
  get full(): boolean {
    return this.#running >= this.concurrency;
  }

  /** Runs `work` for `owner` when a slot is free and it is their turn; settles as `work` does. */
  run<T>(owner: string, work: () => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const start = () => {
        this.#running++;
        this.#runningFor.set(owner, (this.#runningFor.get(owner) ?? 0) + 1);
        this.#lastTurn.set(owner, ++this.#turns);
        void (async () => {
          try {
            resolve(await work());
          } catch (error) {
            reject(error);
          } finally {
            this.#finished(owner);
          }
        })();
      };
      if (!this.full) {
        start();
        return;
      }
      const lane = this.#lanes.get(owner);
      if (lane) lane.push(start);
      else this.#lanes.set(owner, [start]);
      this.#waiting++;
    });
  }

  #finished(owner: string): void {
    this.#running--;
    const left = (this.#runningFor.get(owner) ?? 1) - 1;
    if (left > 0) this.#runningFor.set(owner, left);
    else this.#runningFor.delete(owner);
    if (left === 0 && !this.#lanes.has(owner)) this.#lastTurn.delete(owner);
    this.#startNext();
  }

  #startNext(): void {
    if (this.full) return;
    let next: string | undefined;
    let oldest = Infinity;
    // Lanes are few (bounded by the waiting work); among equals the longest-waiting lane comes first.
    for (const owner of this.#lanes.keys()) {
      const last = this.#lastTurn.get(owner) ?? 0;
      if (last < oldest) {
        oldest = last;
        next = owner;
      }
    }
    if (next === undefined) return;
    const lane = this.#lanes.get(next)!;
    const start = lane.shift()!;
    if (lane.length === 0) this.#lanes.delete(next);
    this.#waiting--;
    start();
  }
}

import { LRUCache } from 'lru-cache';

/** The scope of public example listings; every other scope is a person's id. */
export const EXAMPLES_SCOPE = 'examples';
/** The PostgreSQL channel of migration 0008's triggers: a person's id, 'examples', or '*' for all. */
export const GALLERY_CHANNEL = 'lumina_gallery';

export interface ListingCacheOptions {
  /** How long a listing may be served from memory at most (the safety net behind the notices). */
  ttlMs: number;
  /** Memory for cached listings (their JSON text), oldest dropped first. */
  maxBytes: number;
}

interface Entry {
  text: string;
  /** The stamp taken before the database was read: a change after it makes the entry stale. */
  stamp: number;
}

/**
 * Gallery listings kept as the JSON they were sent as, so a repeated listing costs neither a query,
 * nor mapping, nor serialising (bench/gallery.bench.ts: about 6x the requests per second).
 *
 * Freshness comes from being told of every change, never from guessing: a scope (a person, or the
 * public examples) is marked changed by the database's own notices (triggers on `images` and
 * `image_favorites`, delivered on commit to every API process), by this process's own writes before
 * their responses go out, and by jobs finishing in this process. A listing read from the database
 * is stored with the stamp taken before the read, so a change committed while it was being read
 * makes it stale at once. While the notices cannot be heard (the listening connection is down) the
 * cache is off and everything is read from the database; when they can again, it starts empty.
 */
export class ListingCache {
  private readonly entries: LRUCache<string, Entry>;
  /** When each scope last changed (a stamp). Forgetting one raises `floor` to it: safe, never stale. */
  private readonly changedAt: LRUCache<string, number>;
  /** Entries stamped at or before this are stale (everything changed, or a forgotten scope did). */
  private floor = 0;
  private clock = 0;
  private live = false;

  constructor(options: ListingCacheOptions) {
    this.entries = new LRUCache<string, Entry>({
      maxSize: Math.max(1, options.maxBytes),
      // UTF-16 in memory: two bytes per character, plus the key.
      sizeCalculation: (entry, key) => 2 * (entry.text.length + key.length) + 64,
      ttl: Math.max(1, options.ttlMs),
      ttlAutopurge: false,
    });
    this.changedAt = new LRUCache<string, number>({
      max: 100_000,
      dispose: (stamp, _scope, reason) => {
        if (reason === 'evict') this.floor = Math.max(this.floor, stamp);
      },
    });
  }

  /** Whether listings may be served from memory now (see the class comment). */
  get enabled(): boolean {
    return this.live;
  }

  /** Turns the cache on when changes can be heard, off when they cannot; either way it starts over. */
  setLive(live: boolean): void {
    this.live = live;
    this.changedEverything();
  }

  /** Listings held now (some may be stale and not yet dropped). */
  get size(): number {
    return this.entries.size;
  }

  /** Take before reading the database; pass to `set` with what was read. */
  stamp(): number {
    return ++this.clock;
  }

  get(scope: string, key: string): string | undefined {
    if (!this.live) return undefined;
    const entry = this.entries.get(`${scope}\u0000${key}`);
    if (!entry || entry.stamp <= this.floor || entry.stamp <= (this.changedAt.get(scope) ?? 0))
      return undefined;
    return entry.text;
  }

  set(scope: string, key: string, stamp: number, text: string): void {
    if (!this.live || stamp <= this.floor || stamp <= (this.changedAt.get(scope) ?? 0)) return;
    this.entries.set(`${scope}\u0000${key}`, { text, stamp });
  }

  /** A person's images or favourites changed (or, with EXAMPLES_SCOPE, the public examples). */
  changed(scope: string): void {
    this.changedAt.set(scope, ++this.clock);
  }

  changedEverything(): void {
    this.floor = ++this.clock;
    this.entries.clear();
  }

  /** What the database's notice on GALLERY_CHANNEL says changed. */
  heard(payload: string): void {
    if (payload === '*') this.changedEverything();
    else this.changed(payload);
  }
}

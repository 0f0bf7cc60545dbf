/**
 * A keyed table of plain records with unique secondary indexes. Every write goes through a journal so that a failed
 * operation can be undone (see store.ts); indexes are derived, never stored in snapshots.
 */
export interface Journal {
  record(undo: () => void): void;
}

export interface IndexSpec<T> {
  /** The index key of a record, or null when it is not indexed (e.g. a user without a primary email). */
  key: (record: T) => string | null;
}

interface Index<T> {
  name: string;
  spec: IndexSpec<T>;
  map: Map<string, string>;
}

/**
 * The rows of a table never written: one empty map for them all, which only reads see (write() gives a table a map of
 * its own first). A store has some sixty tables and a test's provider writes to a few: two maps apiece made a third of
 * a fresh provider's memory, and every provider of a test suite is garbage to collect (issue 30).
 */
const NO_ROWS: ReadonlyMap<string, unknown> = new Map<string, unknown>();
/** The indexes of every table that has none (most): a list, as a table has three at most. */
const NO_INDEXES: readonly Index<never>[] = [];

export class Table<T> {
  private rows = NO_ROWS as Map<string, T>;
  private readonly indexes: Index<T>[];
  private journal: Journal | null = null;
  /**
   * Where `oldest()` has got to: a live iterator over the rows (a Map's iterator skips deleted entries and sees those
   * added after it was made) and the id it last gave. Asking a Map for its first entry afresh walks every deleted slot
   * before it, and a bounded table (the outbox, analytics events) deletes from the front on every insert: that walk cost
   * several microseconds a request.
   */
  private oldestCursor: Iterator<string> | null = null;
  private oldestId: string | undefined = undefined;

  constructor(indexes: Record<string, IndexSpec<T>> = {}) {
    const list = Object.entries(indexes).map(([name, spec]) => ({ name, spec, map: new Map<string, string>() }));
    this.indexes = list.length > 0 ? list : (NO_INDEXES as Index<T>[]);
  }

  /** Writes outside a transaction are refused: state changes only through operations. */
  attach(journal: Journal | null): void {
    this.journal = journal;
  }

  get size(): number {
    return this.rows.size;
  }

  get(id: string): T | undefined {
    return this.rows.get(id);
  }

  has(id: string): boolean {
    return this.rows.has(id);
  }

  /** The primary key of the record whose index `name` has key `key`. */
  lookup(name: string, key: string): T | undefined {
    const id = this.index(name).map.get(key);
    return id === undefined ? undefined : this.rows.get(id);
  }

  values(): IterableIterator<T> {
    return this.rows.values();
  }

  /**
   * The record that has been in the table longest: the first in insertion order (a rewrite of an id keeps its place; a
   * delete and a new write put it last), in amortised constant time.
   */
  oldest(): T | undefined {
    for (;;) {
      if (this.oldestId !== undefined) {
        const row = this.rows.get(this.oldestId);
        if (row !== undefined) return row;
      }
      this.oldestCursor ??= this.rows.keys();
      const next = this.oldestCursor.next();
      if (next.done) {
        // A finished iterator stays finished: start afresh next time.
        this.oldestCursor = null;
        this.oldestId = undefined;
        return undefined;
      }
      this.oldestId = next.value;
    }
  }

  /** The records index `name` holds (those with a key): a cheap way to the few records in some state. */
  *indexed(name: string): IterableIterator<T> {
    for (const id of this.index(name).map.values()) {
      const row = this.rows.get(id);
      if (row !== undefined) yield row;
    }
  }

  set(id: string, record: T): void {
    const journal = this.requireJournal();
    const previous = this.rows.get(id);
    this.write(id, record, previous);
    journal.record(() => this.write(id, previous, record));
  }

  delete(id: string): void {
    const journal = this.requireJournal();
    const previous = this.rows.get(id);
    if (previous === undefined) return;
    this.write(id, undefined, previous);
    journal.record(() => this.write(id, previous, undefined));
  }

  entries(): [string, T][] {
    return [...this.rows.entries()];
  }

  load(entries: [string, T][]): void {
    if (this.rows !== NO_ROWS) this.rows.clear();
    this.oldestCursor = null;
    this.oldestId = undefined;
    for (const index of this.indexes) index.map.clear();
    for (const [id, record] of entries) this.write(id, record, undefined);
  }

  /**
   * Makes this table a copy of `source` that shares its records (a fork): only the maps are copied, in time linear in
   * the rows but without copying a record, where a deep copy of a provider holding 1,000 users cost tens of
   * milliseconds (issue 30). A shared record must never change in place, so the shared ones are frozen (deeply, once);
   * every write replaces a record whole, so a write on either side is that side's alone.
   */
  shareFrom(source: Table<T>): void {
    for (const record of source.rows.values()) deepFreeze(record);
    this.rows = source.rows.size > 0 ? new Map(source.rows) : (NO_ROWS as Map<string, T>);
    for (const index of this.indexes) index.map = new Map(source.indexes.find((i) => i.name === index.name)?.map);
    this.oldestCursor = null;
    this.oldestId = undefined;
  }

  private index(name: string): Index<T> {
    for (const index of this.indexes) if (index.name === name) return index;
    throw new Error(`No index ${name}`);
  }

  private requireJournal(): Journal {
    if (!this.journal) throw new Error("State changes only inside store.transact().");
    return this.journal;
  }

  private write(id: string, next: T | undefined, previous: T | undefined): void {
    for (const { spec, map } of this.indexes) {
      const oldKey = previous === undefined ? null : spec.key(previous);
      if (oldKey !== null && map.get(oldKey) === id) map.delete(oldKey);
      const newKey = next === undefined ? null : spec.key(next);
      if (newKey !== null) map.set(newKey, id);
    }
    if (next === undefined) {
      this.rows.delete(id);
      // Written again later, the id goes to the end: it is no longer the oldest even while present.
      if (id === this.oldestId) this.oldestId = undefined;
    } else {
      if (this.rows === NO_ROWS) this.rows = new Map();
      this.rows.set(id, next);
    }
  }
}

/** Freezes a record and everything in it; a frozen object's contents were frozen with it, so it is not walked again. */
export function deepFreeze(value: unknown): void {
  // (Records are plain data; a typed array cannot be frozen, and none is walked into.)
  if (typeof value !== "object" || value === null || Object.isFrozen(value) || ArrayBuffer.isView(value)) return;
  Object.freeze(value);
  for (const inner of Object.values(value)) deepFreeze(inner);
}

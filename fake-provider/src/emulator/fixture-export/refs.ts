/** Small helpers of the exporter: readable unique refs, stable sorting, and leaving out empty fields. */

/** A ref for each record, from a readable basis (an email, a name), made unique with -2, -3 … in the given order. */
export function assignRefs<T extends { id: string }>(
  records: readonly T[],
  basis: (record: T) => string,
): Map<string, string> {
  const refs = new Map<string, string>();
  const taken = new Set<string>();
  for (const record of records) {
    const base = basis(record).trim() || "item";
    let ref = base;
    for (let n = 2; taken.has(ref); n++) ref = `${base}-${n}`;
    taken.add(ref);
    refs.set(record.id, ref);
  }
  return refs;
}

/** A readable ref from a name: "Northwind Traders" → "northwind-traders". */
export function slug(name: string): string {
  return name
    .toLowerCase()
    .replace(/[^a-z0-9@._]+/g, "-")
    .replace(/^-+|-+$/g, "");
}

type SortKey = (string | number)[];

/** A comparator over a tuple of keys (strings compared by code point, so the order does not depend on the locale). */
export function byKey<T>(key: (value: T) => SortKey): (a: T, b: T) => number {
  return (a, b) => {
    const ka = key(a);
    const kb = key(b);
    for (let i = 0; i < ka.length; i++) {
      const x = ka[i]!;
      const y = kb[i]!;
      if (x < y) return -1;
      if (x > y) return 1;
    }
    return 0;
  };
}

/** Drops null and undefined fields, and empty lists and objects: a fixture says only what differs from nothing. */
export function omitNullish<T extends object>(record: T): { [K in keyof T]: Exclude<T[K], null> } {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(record)) {
    if (v === null || v === undefined) continue;
    if (Array.isArray(v) && v.length === 0) continue;
    out[k] = v;
  }
  return out as { [K in keyof T]: Exclude<T[K], null> };
}

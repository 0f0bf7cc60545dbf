/**
 * Keys that reach an object's prototype when written with `obj[key] = …`: a user-chosen path such as
 * `__proto__.allow_negative` in a config override would otherwise write onto `Object.prototype` and change every object
 * in the process (every later request fails, and reset cannot undo it). Code that builds objects from keys a caller
 * chose goes through these helpers; spreads, `Object.fromEntries` and `JSON.parse` define own properties and are safe.
 */
const PROTOTYPE_KEYS: ReadonlySet<string> = new Set(["__proto__", "constructor", "prototype"]);

export function isPrototypeKey(key: string): boolean {
  return PROTOTYPE_KEYS.has(key);
}

/** The first segment of a dotted path that names a prototype, or null. */
export function prototypeSegment(path: string): string | null {
  return path.split(".").find(isPrototypeKey) ?? null;
}

/** Defines `key` as an own, enumerable property (never the `__proto__` setter). */
export function defineOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

/**
 * Writes `value` at the dotted `path` inside `target`, making plain objects on the way; an intermediate that is not a
 * plain object is replaced. Throws on a prototype segment: callers refuse such paths first with their own message.
 */
export function setPath(target: Record<string, unknown>, path: string, value: unknown): void {
  const bad = prototypeSegment(path);
  if (bad !== null) throw new TypeError(`Refusing to write the prototype key "${bad}" of ${path}`);
  const parts = path.split(".");
  let node = target;
  for (const part of parts.slice(0, -1)) {
    const next = Object.hasOwn(node, part) ? node[part] : undefined;
    if (typeof next === "object" && next !== null && !Array.isArray(next)) node = next as Record<string, unknown>;
    else {
      const created: Record<string, unknown> = {};
      defineOwn(node, part, created);
      node = created;
    }
  }
  defineOwn(node, parts.at(-1)!, value);
}

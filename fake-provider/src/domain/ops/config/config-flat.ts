import { refusal } from "../../errors/refusals.ts";
import { defineOwn, prototypeSegment } from "../../safe-keys.ts";

/**
 * The flat form of an override: each leaf under its dotted path, what the layers are rendered from (config-layers.ts);
 * and the record sections, whose entries only an object makes.
 */

export const providersKey = "auth.oauth.providers";
export const trustedDomainsKey = "domains.trustedDomains";

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/** Sections whose entries are keyed by id (a record): the OAuth providers and the trusted domains. */
const recordSections = [providersKey, trustedDomainsKey];
/** `auth.oauth.providers.google`: an entry of a record section. */
const isRecordEntry = (path: string) =>
  recordSections.some((section) => path.startsWith(`${section}.`) && !path.slice(section.length + 1).includes("."));
/** For `domains.trustedDomains.2.baseUrl`, the entry's path `domains.trustedDomains.2`; null for other keys. */
export function entryFieldOf(key: string): string | null {
  for (const section of recordSections) {
    if (!key.startsWith(`${section}.`)) continue;
    const rest = key.slice(section.length + 1).split(".");
    return rest.length >= 2 ? `${section}.${rest[0]}` : null;
  }
  return null;
}

/**
 * The flat form of an override: `{a: {b: 1}}` and `{"a.b": 1}` are the same override; an empty object stays a key of
 * its own (it makes a record entry). A key naming a prototype is refused on a write (`onPrototype: "refuse"`,
 * domain/safe-keys.ts) and skipped on a read (only a hand-made snapshot holds one).
 */
export function flatten(
  value: Record<string, unknown>,
  onPrototype: "refuse" | "skip" = "skip",
  prefix = "",
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    const path = prefix ? `${prefix}.${key}` : key;
    const bad = prototypeSegment(path);
    if (bad !== null) {
      if (onPrototype === "refuse") throw refusal("invalidConfigOverrideConfigKey", path, bad);
      continue;
    }
    if (isPlainObject(v) && Object.keys(v).length > 0) {
      // A nested object makes a record entry (`{}` first, then its fields); a dotted key alone cannot (entryFieldOf).
      if (isRecordEntry(path)) defineOwn(out, path, {});
      for (const [inner, innerValue] of Object.entries(flatten(v, onPrototype, path)))
        defineOwn(out, inner, innerValue);
    } else defineOwn(out, path, isPlainObject(v) ? {} : v);
  }
  return out;
}

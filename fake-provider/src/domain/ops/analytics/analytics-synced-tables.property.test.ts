import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { admin, api, expectJson, newProvider, server, type TestProvider } from "../../../test-support/api.ts";
import { jsonbText } from "./analytics-synced-tables.ts";

/**
 * The copy's rules with many cases: JSON columns are jsonb's text as the service reads it back into JavaScript (the
 * same value, each object's keys shorter first then by their bytes, whatever order they were written in, except that
 * a JavaScript object lists index-like keys first), and the `users` view after any run of creations, renames
 * and deletions holds exactly the users that are left, each with its latest name.
 */

const utf8 = (s: string) => [...new TextEncoder().encode(s)];
/** A key a JavaScript object lists first, in numeric order, whatever order it was written in (an array index). */
const isIndex = (key: string) => /^(0|[1-9]\d*)$/.test(key) && Number(key) < 2 ** 32 - 1;
function inJsonbOrder(a: string, b: string): boolean {
  if (isIndex(a) || isIndex(b)) return isIndex(a) && (!isIndex(b) || Number(a) < Number(b));
  const [x, y] = [utf8(a), utf8(b)];
  if (x.length !== y.length) return x.length < y.length;
  const i = x.findIndex((byte, k) => byte !== y[k]);
  return i < 0 || x[i]! < y[i]!;
}
/** Every object's keys, in the order the text has them. */
function keysInOrder(value: unknown, out: string[][] = []): string[][] {
  if (Array.isArray(value)) value.forEach((v) => keysInOrder(v, out));
  else if (typeof value === "object" && value !== null) {
    out.push(Object.keys(value));
    Object.values(value).forEach((v) => keysInOrder(v, out));
  }
  return out;
}
const shuffledKeys = (value: unknown): unknown =>
  Array.isArray(value)
    ? value.map(shuffledKeys)
    : typeof value === "object" && value !== null
      ? Object.fromEntries(
          Object.entries(value)
            .reverse()
            .map(([k, v]) => [k, shuffledKeys(v)]),
        )
      : value;

describe("the synced tables (property)", () => {
  it("a JSON column is the same value with jsonb's key order, whatever order the keys were written in", () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const text = jsonbText(value);
        expect(JSON.parse(text)).toEqual(JSON.parse(JSON.stringify(value)));
        for (const keys of keysInOrder(JSON.parse(text)))
          for (let i = 1; i < keys.length; i++) expect(inJsonbOrder(keys[i - 1]!, keys[i]!)).toBe(true);
        expect(jsonbText(shuffledKeys(value))).toBe(text);
      }),
      { numRuns: 300 },
    );
  });

  type Step =
    { kind: "create"; name: string } | { kind: "rename"; at: number; name: string } | { kind: "delete"; at: number };
  const name = fc.constantFrom("Ada", "Grace", "Edsger", "Barbara", "Ken");
  const step: fc.Arbitrary<Step> = fc.oneof(
    fc.record({ kind: fc.constant("create" as const), name }),
    fc.record({ kind: fc.constant("rename" as const), at: fc.nat(), name }),
    fc.record({ kind: fc.constant("delete" as const), at: fc.nat() }),
  );

  it("after any run of creations, renames and deletions the users view holds the users left, with their latest names", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { maxLength: 8 }), async (steps) => {
        const provider: TestProvider = newProvider();
        const model = new Map<string, string>();
        let counter = 0;
        for (const s of steps) {
          const ids = [...model.keys()];
          if (s.kind === "create") {
            const json = { primary_email: `p${counter++}@example.com`, display_name: s.name };
            const user = await expectJson<{ id: string }>(
              await api(provider, "/users", { headers: server(), json }),
              201,
            );
            model.set(user.id, s.name);
          } else if (ids.length > 0) {
            const id = ids[s.at % ids.length]!;
            if (s.kind === "rename") {
              const json = { display_name: s.name };
              await expectJson(await api(provider, `/users/${id}`, { method: "PATCH", headers: server(), json }));
              model.set(id, s.name);
            } else {
              await expectJson(await api(provider, `/users/${id}`, { method: "DELETE", headers: server() }));
              model.delete(id);
            }
          }
        }
        const response = await api(provider, "/internal/analytics/query", {
          headers: admin(),
          json: { query: "SELECT id, display_name FROM users WHERE primary_email LIKE 'p%@example.com' ORDER BY id" },
        });
        const { result } = await expectJson<{ result: { id: string; display_name: string }[] }>(response);
        const expected = [...model].map(([id, displayName]) => ({ id, display_name: displayName }));
        expect(result).toEqual(expected.sort((a, b) => (a.id < b.id ? -1 : 1)));
        expect(provider.unexpected).toEqual([]);
      }),
      { numRuns: 15 },
    );
  });
});

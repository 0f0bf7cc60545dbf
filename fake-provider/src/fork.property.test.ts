import { describe, expect, it } from "vitest";
import fc from "fast-check";
import type { FakeProvider } from "./app.ts";
import { api, expectJson, newProvider, server, signUp } from "./test-support/api.ts";

/**
 * Forks share their parent's records (Store.shareFrom: copy-on-write by replacement, the shared records frozen): for any
 * interleaving of writes on a parent and its forks, each side ends with exactly its own writes over the state at the
 * fork, as if the state had been copied whole.
 */
type Side = "parent" | "fork" | "grandchild";
type Step =
  | { kind: "create"; side: Side; name: string }
  | { kind: "rename"; side: Side; at: number; name: string }
  | { kind: "delete"; side: Side; at: number };

const side = fc.constantFrom<Side>("parent", "fork", "grandchild");
const name = fc.constantFrom("ada", "grace", "edsger", "barbara");
const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ kind: fc.constant("create" as const), side, name }),
  fc.record({ kind: fc.constant("rename" as const), side, at: fc.nat(20), name }),
  fc.record({ kind: fc.constant("delete" as const), side, at: fc.nat(20) }),
);

/** Each side's users as id → display name, read through the API. */
async function usersOf(p: FakeProvider): Promise<Record<string, string | null>> {
  const list = await expectJson<{ items: { id: string; display_name: string | null }[] }>(
    await api(p, "/users", { headers: server() }),
  );
  return Object.fromEntries(list.items.map((u) => [u.id, u.display_name]));
}

describe("forks sharing records", () => {
  it("keep each side's writes its own, for any interleaving of creates, renames and deletes", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { maxLength: 12 }), async (steps) => {
        const parent = newProvider();
        for (let i = 0; i < 3; i++) await signUp(parent);
        const providers: Record<Side, FakeProvider> = { parent, fork: parent, grandchild: parent };
        providers.fork = parent.fork();
        const expected: Record<Side, Record<string, string | null>> = {
          parent: await usersOf(parent),
          fork: await usersOf(providers.fork),
          grandchild: {},
        };
        expect(expected.fork).toEqual(expected.parent);
        // A fork of the fork, after a write on the fork: shares records of both generations.
        await signUp(providers.fork);
        expected.fork = await usersOf(providers.fork);
        providers.grandchild = providers.fork.fork();
        expected.grandchild = { ...expected.fork };
        for (const s of steps) {
          const p = providers[s.side];
          const ids = Object.keys(expected[s.side]);
          if (s.kind === "create") {
            const body = { display_name: s.name };
            const created = await expectJson<{ id: string }>(
              await api(p, "/users", { method: "POST", headers: server(), json: body }),
              201,
            );
            expected[s.side][created.id] = s.name;
          } else if (ids.length > 0) {
            const id = ids[s.at % ids.length]!;
            if (s.kind === "rename") {
              const patch = { method: "PATCH", headers: server(), json: { display_name: s.name } } as const;
              await expectJson(await api(p, `/users/${id}`, patch));
              expected[s.side][id] = s.name;
            } else {
              await expectJson(await api(p, `/users/${id}`, { method: "DELETE", headers: server() }));
              delete expected[s.side][id];
            }
          }
        }
        for (const s of ["parent", "fork", "grandchild"] as const)
          expect(await usersOf(providers[s])).toEqual(expected[s]);
      }),
      { numRuns: 15 },
    );
  });

  it("share records frozen, so a change in place fails loudly instead of reaching the other side", async () => {
    const parent = newProvider();
    const ada = await signUp(parent);
    const fork = parent.fork();
    const shared = fork.store.read.users.get(ada.user_id)!;
    expect(parent.store.read.users.get(ada.user_id)).toBe(shared);
    expect(() => {
      (shared as { displayName: string | null }).displayName = "changed in place";
    }).toThrow(TypeError);
  });
});

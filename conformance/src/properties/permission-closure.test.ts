import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { inProcessTarget } from "../targets.ts";
import { adminApp, serverApp, uniqueEmail, uniqueTag } from "../suites/support.ts";
import { permissionTag } from "../suites/team-support.ts";

/**
 * spec §6 "Definitions may contain other permissions" and §9 "recursion default true": for any definition graph, cycles
 * and self-loops included, the recursive listing of a member's team permissions is exactly the transitive closure of the
 * direct grants, computed here by a deliberately simple model (repeat "add what anything held contains" to a fixpoint),
 * and the non-recursive listing is exactly the direct grants.
 */

/** System permissions may be contained but contain nothing (protocol.md §5.4). */
const SYSTEM = ["$read_members", "$update_team"] as const;

interface Graph {
  /** Contained ids of node i, as indexes: a node index below `size`, or `size + k` for SYSTEM[k]. */
  edges: number[][];
  direct: number[];
}

const graphs = fc.integer({ min: 1, max: 6 }).chain((size) =>
  fc.record({
    edges: fc.array(fc.uniqueArray(fc.integer({ min: 0, max: size + SYSTEM.length - 1 }), { maxLength: size + 1 }), {
      minLength: size,
      maxLength: size,
    }),
    direct: fc.uniqueArray(fc.integer({ min: 0, max: size + SYSTEM.length - 1 }), { minLength: 1, maxLength: 3 }),
  }),
);

/** The reference model: a fixpoint over id sets, no visited-set bookkeeping. */
function closure(
  names: readonly string[],
  contains: ReadonlyMap<string, readonly string[]>,
  direct: readonly string[],
): string[] {
  const held = new Set(direct);
  for (let changed = true; changed;) {
    changed = false;
    for (const id of [...held]) {
      for (const next of contains.get(id) ?? []) {
        if (!held.has(next)) {
          held.add(next);
          changed = true;
        }
      }
    }
  }
  return names.filter((n) => held.has(n)).sort();
}

describe("property: recursive permission listing = transitive closure of the definition graph", () => {
  it("holds for random graphs with cycles, through the admin, server and listing endpoints", async () => {
    // One provider for every run; each run uses fresh ids, a fresh team and a fresh user, so runs cannot interfere.
    const target = inProcessTarget();
    const admin = adminApp(target);
    const server = serverApp(target);
    await fc.assert(
      fc.asyncProperty(graphs, async (graph: Graph) => {
        const custom = graph.edges.map(() => permissionTag("node"));
        const names = [...custom, ...SYSTEM];
        const contains = new Map(custom.map((id, i) => [id, graph.edges[i]!.map((j) => names[j]!)]));
        // Create every node first, then wire the edges, so any cycle can be expressed.
        for (const id of custom) await admin.createTeamPermissionDefinition({ id });
        for (const id of custom)
          await admin.updateTeamPermissionDefinition(id, { containedPermissionIds: [...contains.get(id)!] });

        const user = await server.createUser({ primaryEmail: uniqueEmail("closure") });
        const team = await server.createTeam({ displayName: uniqueTag("closure") });
        await team.addUser(user.id);
        await user.revokePermission(team, "team_member");
        const direct = graph.direct.map((j) => names[j]!);
        for (const id of direct) await user.grantPermission(team, id);

        const recursive = (await user.listPermissions(team)).map((p) => p.id).sort();
        expect(recursive).toEqual(closure(names, contains, direct));
        const flat = (await user.listPermissions(team, { recursive: false })).map((p) => p.id).sort();
        expect(flat).toEqual([...direct].sort());
      }),
      { numRuns: 40 },
    );
  });
});

import { describe, expect, it } from "vitest";
import { DEV, newProvider } from "../../../test-support/api.ts";
import { setOverride } from "../config/config-layers.ts";
import { anyLayerMentionsSync } from "./db-sync-config.ts";
import { projectsWithSync } from "./db-sync-sequencer.ts";

/**
 * The shortcut the db-sync worker takes after every commit: no layer naming the sync's section means no project with
 * an external database, and any layer naming it sends the question to the full rendering, which decides.
 */
describe("projects with an external database", () => {
  const database = { type: "postgres", connectionString: "postgresql://u:p@127.0.0.1:1/none" };
  // What a layer holds, whether it names the section, whether the project then has a database.
  const cases: [string, Record<string, unknown>, boolean, boolean][] = [
    ["a database by its own key", { "dbSync.externalDatabases.main": database }, true, true],
    ["the databases as one object", { "dbSync.externalDatabases": { main: database } }, true, true],
    ["the whole section as one object", { dbSync: { externalDatabases: { main: database } } }, true, true],
    ["a database removed", { "dbSync.externalDatabases.main": null }, true, false],
    ["the section emptied", { "dbSync.externalDatabases": {} }, true, false],
    ["a key that only starts alike", { "dbSyncs.externalDatabases.main": database }, false, false],
  ];

  it("are none in the seed, found without rendering", () => {
    const { tables } = newProvider().store;
    expect(anyLayerMentionsSync(tables)).toBe(false);
    expect(projectsWithSync(tables)).toEqual([]);
  });

  for (const [what, override, mentions, found] of cases)
    it(`are found by the full rendering whenever a layer names the section: ${what}`, () => {
      const provider = newProvider();
      provider.store.transactSync((tables) => setOverride({ tables }, DEV.id, "environment", override));
      const { tables } = provider.store;
      expect(anyLayerMentionsSync(tables)).toBe(mentions);
      expect(projectsWithSync(tables)).toEqual(found ? [DEV.id] : []);
    });
});

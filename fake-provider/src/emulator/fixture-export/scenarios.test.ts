import { readdir, readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { loadFixture, parseFixture, type Fixture } from "@authsim/fixtures";
import { seededRandom } from "@authsim/sdk/runtime";
import { api, client, expectKnownError, newProvider, ORIGIN, type TestProvider } from "../../test-support/api.ts";
import { exportFixture } from "./export.ts";

/**
 * Every scenario of fixtures/scenarios/ round-trips: load into a fresh provider → export → load into another → export
 * gives the same document but for the generated ids (fixtures README "Export"). Anonymous users, negative and custom
 * item quantities and the emulator-only anonymous_enabled flag included.
 */
const directory = new URL("../../../../fixtures/scenarios/", import.meta.url);
const files = (await readdir(directory)).filter((f) => f.endsWith(".json")).sort();
const read = async (file: string): Promise<Fixture> =>
  parseFixture(JSON.parse(await readFile(new URL(file, directory), "utf8")));

const load = (p: TestProvider, document: unknown) =>
  loadFixture(document, { baseUrl: ORIGIN, fetch: p.fetch, emulator: true });

/** The document without the ids the targets generated (projects keep theirs: they are the fixture's). */
function withoutIds(document: Fixture, projectIds: string[]): unknown {
  return JSON.parse(
    JSON.stringify(document, (key, value: unknown) =>
      key === "id" && typeof value === "string" && !projectIds.includes(value) ? undefined : value,
    ),
  );
}

describe("scenario fixtures", () => {
  it("include the store, the SaaS and the anonymous-upgrades apps", () => {
    expect(files).toEqual(expect.arrayContaining(["anonymous-upgrades.json", "saas-teams.json", "store-items.json"]));
  });

  it.each(files)("%s round-trips through export and a fresh provider", async (file) => {
    const document = await read(file);
    const projectIds = document.projects.map((p) => p.id);
    const first = newProvider();
    await load(first, document);
    const exported = exportFixture(first, { projectIds });
    expect(parseFixture(JSON.parse(JSON.stringify(exported)))).toEqual(exported);
    // Another random source: ids come out in another order, and nothing exported may depend on it.
    const second = newProvider({ ids: seededRandom(`${file} second load`) });
    await load(second, JSON.parse(JSON.stringify(exported)));
    expect(withoutIds(exportFixture(second, { projectIds }), projectIds)).toEqual(withoutIds(exported, projectIds));
    expect([first.unexpected, second.unexpected]).toEqual([[], []]);
  });

  it("exports what the anonymous scenario declares: the flag, anonymous users with their data, their items", async () => {
    const document = await read("anonymous-upgrades.json");
    const p = newProvider();
    await load(p, document);
    const [project] = exportFixture(p, { projectIds: [document.projects[0]!.id] }).projects;
    expect(project!.config).toMatchObject({ anonymous_enabled: true, magic_link_enabled: true });
    const anonymous = project!.users!.filter((u) => u.is_anonymous);
    expect(anonymous.map((u) => u.client_metadata)).toEqual(
      expect.arrayContaining([{ drawings: ["doodle-7"] }, { drawings: [] }]),
    );
    const visitor7 = anonymous.find(
      (u) => JSON.stringify(u.client_metadata) === JSON.stringify({ drawings: ["doodle-7"] }),
    )!;
    expect(project!.items).toContainEqual({
      customer_type: "user",
      customer: visitor7.ref,
      item_id: "canvas-credits",
      quantity: 3,
    });
    // Visitors have no email or name to be named by: their refs must not follow the ids a load happens to generate.
    for (const seed of ["a", "b", "c", "d"]) {
      const q = newProvider({ ids: seededRandom(seed) });
      await load(q, document);
      const again = exportFixture(q, { projectIds: [document.projects[0]!.id] }).projects[0]!;
      expect(again.users!.map((u) => [u.ref, u.client_metadata])).toEqual(
        project!.users!.map((u) => [u.ref, u.client_metadata]),
      );
    }
  });

  it("sets anonymous_enabled on an emulator (closed: ANONYMOUS_ACCOUNTS_NOT_ENABLED), and leaves it out with a warning elsewhere", async () => {
    const document = await read("anonymous-upgrades.json");
    const project = document.projects[0]!;
    const closed = { ...document, projects: [{ ...project, config: { ...project.config, anonymous_enabled: false } }] };
    const p = newProvider();
    await load(p, closed);
    const seed = { id: project.id, display_name: project.display_name, keys: project.keys!, config: {} };
    await expectKnownError(
      await api(p, "/auth/anonymous/sign-up", { method: "POST", headers: client({}, seed) }),
      "ANONYMOUS_ACCOUNTS_NOT_ENABLED",
      400,
    );
    expect(exportFixture(p, { projectIds: [project.id] }).projects[0]!.config?.anonymous_enabled).toBe(false);

    // A provider that is not an emulator (its admin API has no such flag) gets everything else, and a warning.
    const sent: { path: string; body: string }[] = [];
    const hosted = async (input: string, init?: RequestInit) => {
      if (new URL(input).pathname.startsWith("/__emulator")) throw new Error("not an emulator");
      sent.push({ path: new URL(input).pathname, body: typeof init?.body === "string" ? init.body : "" });
      return p.fetch(input, init);
    };
    const minimal = {
      version: 1,
      projects: [
        {
          id: project.id,
          display_name: project.display_name,
          config: { anonymous_enabled: true, sign_up_enabled: true },
        },
      ],
    };
    const report = await loadFixture(minimal, {
      baseUrl: ORIGIN,
      fetch: hosted,
      keys: { [project.id]: project.keys! },
    });
    expect(report.projects[0]!.warnings).toEqual([
      expect.stringContaining("config.anonymous_enabled is set only on an emulator target"),
    ]);
    const patch = sent.find((s) => s.path === "/api/v1/internal/projects/current" && s.body !== "");
    expect(JSON.parse(patch!.body)).toEqual({ config: { sign_up_enabled: true } });
  });
});

import { readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { FixtureError, loadFixture, parseFixture, type Fixture, type LoadReport } from "@authsim/fixtures";
import { StackServerApp } from "@authsim/sdk";
import {
  api,
  client,
  DEV,
  expectJson,
  newProvider,
  ORIGIN,
  request,
  server,
  type TestProvider,
} from "../../test-support/api.ts";
import { exportFixture } from "./export.ts";

/**
 * Fixtures end to end: the SaaS scenario loads through the public API into an in-process emulator and reads back the
 * same way; export → fresh provider → load → export gives the same document but for generated ids.
 */
const scenarioUrl = new URL("../../../../fixtures/scenarios/saas-teams.json", import.meta.url);
const readScenario = async (): Promise<unknown> => JSON.parse(await readFile(scenarioUrl, "utf8"));
const SCENARIO_ID = "5b0c1f0e-3a7d-4c2b-9e4f-7d1a2b3c4d5e";
const KEYS = {
  publishable_client_key: "pck_authsim_scenario_saas_00000000000000000000000000000000",
  secret_server_key: "ssk_authsim_scenario_saas_00000000000000000000000000000000",
  super_secret_admin_key: "sak_authsim_scenario_saas_00000000000000000000000000000000",
};
const project = { id: SCENARIO_ID, display_name: "Northwind Notes", keys: KEYS } as const;
const asSeed = { ...project, config: {} };

const load = (p: TestProvider, document: unknown) =>
  loadFixture(document, { baseUrl: ORIGIN, fetch: p.fetch, emulator: true });
const exported = (p: TestProvider) => exportFixture(p);

/** The document without the ids the target generated (users and teams are referenced by ref, not id). */
function withoutIds(document: Fixture): unknown {
  return JSON.parse(
    JSON.stringify(document, (key, value: unknown) =>
      key === "id" && typeof value === "string" && value !== SCENARIO_ID && value !== DEV.id ? undefined : value,
    ),
  );
}

describe("fixtures", () => {
  let report: LoadReport;
  let p: TestProvider;

  it("loads the SaaS scenario through the public API: users sign in, roles resolve, items, keys and vault read back", async () => {
    p = newProvider();
    report = await load(p, await readScenario());
    const loaded = report.projects[0]!;
    expect(Object.keys(loaded.users)).toEqual(["alice", "bob", "carol", "dave", "erin"]);
    expect(loaded.keys).toEqual(KEYS);
    const signIn = await api(p, "/auth/password/sign-in", {
      headers: client({}, asSeed),
      json: { email: "alice@northwind.test", password: "correct horse battery" },
    });
    expect((await expectJson<{ user_id: string }>(signIn)).user_id).toBe(loaded.users.alice);

    const northwind = loaded.teams.northwind!;
    // Roles resolved through what they contain: asked recursively (the wire's default lists direct grants only).
    const perms = await api(p, `/team-permissions?team_id=${northwind}&user_id=${loaded.users.bob}&recursive=true`, {
      headers: server({}, asSeed),
    });
    const bobs = (await expectJson<{ items: { id: string }[] }>(perms)).items.map((i) => i.id).sort();
    expect(bobs).toEqual(["$read_members", "docs:read", "docs:write", "editor", "viewer"]);
    const direct = await api(
      p,
      `/team-permissions?team_id=${northwind}&user_id=${loaded.users.carol}&recursive=false`,
      { headers: server({}, asSeed) },
    );
    expect((await expectJson<{ items: { id: string }[] }>(direct)).items.map((i) => i.id)).toEqual(["viewer"]);
    const erin = await api(p, `/project-permissions?user_id=${loaded.users.erin}`, { headers: server({}, asSeed) });
    expect((await expectJson<{ items: { id: string }[] }>(erin)).items.map((i) => i.id)).toEqual(["support_agent"]);
    const bob = await expectJson<{ selected_team_id: string }>(
      await api(p, `/users/${loaded.users.bob}`, { headers: server({}, asSeed) }),
    );
    expect(bob.selected_team_id).toBe(northwind);

    const seats = await api(p, `/payments/items/team/${northwind}/seats`, { headers: server({}, asSeed) });
    expect((await expectJson<{ quantity: number }>(seats)).quantity).toBe(10);
    const ci = loaded.apiKeys.find((k) => k.description === "CI deploy key")!;
    const checked = await api(p, "/team-api-keys/check", { headers: server({}, asSeed), json: { api_key: ci.value } });
    expect((await expectJson<{ team_id: string }>(checked)).team_id).toBe(northwind);
    const old = loaded.apiKeys.find((k) => k.description === "Old integration")!;
    const revoked = await api(p, "/team-api-keys/check", { headers: server({}, asSeed), json: { api_key: old.value } });
    expect(revoked.headers.get("x-stack-known-error")).toBe("API_KEY_REVOKED");
    const app = new StackServerApp({
      baseUrl: ORIGIN,
      projectId: SCENARIO_ID,
      secretServerKey: KEYS.secret_server_key,
      fetch: p.fetch,
    });
    const vault = await app.getDataVaultStore("integrations");
    expect(await vault.getValue("northwind/slack-webhook", { secret: "northwind-vault-secret" })).toBe(
      "https://hooks.slack.example/T000/B000",
    );
    expect(p.unexpected).toEqual([]);
  });

  it("round-trips: export → fresh provider → load → export is the same document but for generated ids", async () => {
    const first = exported(p);
    expect(first.projects.map((x) => x.id)).toEqual([SCENARIO_ID, DEV.id]);
    const northwind = first.projects[0]!;
    expect(northwind.users?.map((u) => u.ref)).toEqual([
      "alice@northwind.test",
      "bob@northwind.test",
      "carol@northwind.test",
      "dave@globex.test",
      "erin@support.northwind.test",
    ]);
    expect(northwind.users?.[0]).toMatchObject({
      display_name: "Alice Owner",
      server_metadata: { plan: "business" },
      selected_team: "northwind-traders",
    });
    expect(northwind.users?.[0]?.password_hash).toMatch(/^pbkdf2-sha256\$/);
    expect(northwind.data_vault?.stores.integrations?.entries).toHaveLength(1);
    // Projects in creation order (same instant here, so by id); the exported document is itself a valid fixture.
    expect(parseFixture(JSON.parse(JSON.stringify(first)))).toEqual(first);

    const fresh = newProvider();
    await load(fresh, JSON.parse(JSON.stringify(first)));
    const second = exported(fresh);
    expect(withoutIds(second)).toEqual(withoutIds(first));
    // The copied hash still signs in.
    const signIn = await api(fresh, "/auth/password/sign-in", {
      headers: client({}, asSeed),
      json: { email: "bob@northwind.test", password: "correct horse battery" },
    });
    expect(signIn.status).toBe(200);
    expect(fresh.unexpected).toEqual([]);
  });

  it("carries an uploaded image as its data URL, which the next emulator stores anew", async () => {
    const gif = "data:image/gif;base64,R0lGODlhAQABAAAAACH5BAEKAAEALAAAAAABAAEAAAICTAEAOw==";
    const source = newProvider();
    const created = await expectJson<{ profile_image_url: string }>(
      await api(source, "/users", {
        headers: server(),
        json: { primary_email: "pic@example.com", profile_image_url: gif },
      }),
      201,
    );
    expect(created.profile_image_url).toMatch(/\/__storage\/stack-storage\/user-profile-images\//);
    const document = exportFixture(source);
    const user = document.projects.flatMap((pr) => pr.users ?? []).find((u) => u.primary_email === "pic@example.com");
    expect(user?.profile_image_url).toBe(gif);
    const target = newProvider();
    const loaded = await load(target, document);
    const id = loaded.projects[0]!.users[user!.ref]!;
    const read = await expectJson<{ profile_image_url: string }>(
      await api(target, `/users/${id}`, { headers: server() }),
    );
    const image = await target.fetch(read.profile_image_url);
    expect([image.status, image.headers.get("content-type")]).toEqual([200, "image/gif"]);
  });

  it("is served by the control endpoints: GET /__emulator/fixture exports, POST loads", async () => {
    const q = newProvider();
    const loadedOver = await expectJson<LoadReport>(
      await request(q, "/__emulator/fixture", { json: await readScenario() }),
      201,
    );
    expect(Object.keys(loadedOver.projects[0]!.teams)).toEqual(["northwind", "globex"]);
    const one = await expectJson<Fixture>(await request(q, `/__emulator/fixture?project_id=${SCENARIO_ID}`));
    expect(one.projects.map((x) => x.display_name)).toEqual(["Northwind Notes"]);
    expect(one.projects[0]!.teams?.map((t) => [t.ref, t.members?.length])).toEqual([
      ["globex", 2],
      ["northwind-traders", 3],
    ]);
    const again = await request(q, "/__emulator/fixture", { json: await readScenario() });
    expect(again.status).toBe(400);
    expect(await again.text()).toContain("USER_EMAIL_ALREADY_EXISTS");
  });

  it("loads into an existing project of any provider with its keys, through /api/v1 only", async () => {
    const q = newProvider();
    const seen: string[] = [];
    const apiOnly = (input: string, init?: RequestInit) => {
      seen.push(new URL(input).pathname);
      if (new URL(input).pathname.startsWith("/__emulator")) throw new Error("not an emulator");
      return q.fetch(input, init);
    };
    const document = {
      version: 1,
      projects: [
        {
          id: DEV.id,
          display_name: DEV.display_name,
          users: [
            {
              ref: "zoe",
              primary_email: "zoe@example.com",
              password: "correct horse battery",
              project_permissions: [],
            },
          ],
          teams: [
            {
              ref: "lab",
              display_name: "Lab",
              members: [{ user: "zoe", permissions: ["team_admin"] }],
              api_keys: [{ description: "ci" }],
            },
          ],
        },
      ],
    };
    const loaded = await loadFixture(document, { baseUrl: ORIGIN, fetch: apiOnly, keys: { [DEV.id]: DEV.keys } });
    expect(seen.every((path) => path.startsWith("/api/v1/"))).toBe(true);
    expect(loaded.projects[0]!.apiKeys.map((k) => [k.owner, k.ref, k.description])).toEqual([["team", "lab", "ci"]]);
    const team = exported(q).projects.find((x) => x.id === DEV.id)!.teams!;
    expect(team).toEqual([
      expect.objectContaining({ ref: "lab", members: [{ user: "zoe@example.com", permissions: ["team_admin"] }] }),
    ]);
    // Without keys a non-emulator target cannot be loaded (it cannot create the project), and nothing is sent.
    seen.length = 0;
    await expect(loadFixture(document, { baseUrl: ORIGIN, fetch: apiOnly })).rejects.toThrow(/No keys for project/);
    expect(seen).toEqual([]);
  });

  it("rejects invalid documents with every problem named by its path, before loading anything", async () => {
    const bad = {
      version: 1,
      projects: [
        {
          id: SCENARIO_ID,
          display_name: "x",
          users: [{ ref: "a", primary_email: "not an email" }, { ref: "a" }],
          teams: [{ ref: "t", display_name: "T", members: [{ user: "ghost" }] }],
          items: [{ customer_type: "team", customer: "nobody", item_id: "seats", quantity: 1 }],
          surprise: true,
        },
      ],
    };
    const q = newProvider();
    const failure = await load(q, bad).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(FixtureError);
    const message = (failure as Error).message;
    for (const expected of [
      'projects.0: Unrecognized key: "surprise"',
      "projects.0.users.0.primary_email",
      'duplicate user ref "a"',
      'no user with ref "ghost"',
      'no team with ref "nobody"',
    ]) {
      expect(message).toContain(expected);
    }
    expect(q.requestLog.list()).toEqual([]);
  });
});

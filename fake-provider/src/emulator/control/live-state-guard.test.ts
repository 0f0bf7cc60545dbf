import { describe, expect, it } from "vitest";
import { DEV, expectJson, newProvider, request, type TestProvider } from "../../test-support/api.ts";

/** The control endpoints refuse live-looking keys and real-service trusted domains, and change nothing (live-state-guard.ts). */

const LIVE = `ssk_${"q".repeat(45)}`;
const REAL_DOMAIN = { domain: "https://app.stack-auth.com", handler_path: "/handler" };
const OWN_DOMAIN = { domain: "http://localhost:3000", handler_path: "/handler" };
const NEW_ID = "0b7c2a4e-1d3f-4a5b-8c6d-7e8f9a0b1c2d";
const ownKeys = {
  publishable_client_key: `pck_authsim_${"a".repeat(45)}`,
  secret_server_key: `ssk_authsim_${"b".repeat(45)}`,
  super_secret_admin_key: `sak_authsim_${"c".repeat(45)}`,
};
const liveKeys = { ...ownKeys, secret_server_key: LIVE };

interface Refusal {
  error: string;
  refused: { keys: { where: string; starts_with: string }[]; domains: { where: string; domain: string }[] };
}

/** Sends the request and expects a 400 that names the culprit, with the state exactly as before. */
async function expectRefused(
  p: TestProvider,
  path: string,
  init: { method?: string; json: unknown },
): Promise<Refusal> {
  const before = p.snapshot();
  const body = await expectJson<Refusal>(await request(p, path, init), 400);
  expect(p.snapshot()).toEqual(before);
  expect(body.error).toMatch(/^Refused: .* nothing was changed\./);
  expect(JSON.stringify(body)).not.toContain("q".repeat(5));
  return body;
}

function expectKeyRefusal(body: Refusal): void {
  expect(body.refused.keys.map((k) => k.starts_with)).toEqual(["ssk_qqqq…"]);
  expect(body.error).toContain("ssk_qqqq…");
  expect(body.error).toMatch(/authsim/);
}

function expectDomainRefusal(body: Refusal): void {
  expect(body.refused.domains.map((d) => d.domain)).toEqual([REAL_DOMAIN.domain]);
  expect(body.error).toContain("Use your app's own (local) domains instead.");
}

type Row = [string, Record<string, unknown>];
/** The provider's snapshot with one table's records changed. */
function editedSnapshot(
  p: TestProvider,
  table: string,
  edit: (record: Record<string, unknown>) => Record<string, unknown>,
) {
  const snapshot = p.snapshot();
  const rows = snapshot.store.tables[table] as Row[];
  snapshot.store.tables[table] = rows.map(([id, r]) => [id, edit(r)]);
  return snapshot;
}

describe("POST /__emulator/restore", () => {
  it("refuses a snapshot holding a live-looking key, naming its first 8 characters", async () => {
    const p = newProvider();
    const snapshot = editedSnapshot(p, "apiKeySets", (r) =>
      r.projectId === DEV.id ? { ...r, secretServerKey: LIVE } : r,
    );
    const body = await expectRefused(p, "/__emulator/restore", { json: snapshot });
    expect(body.refused.keys[0]?.where).toContain(`project ${DEV.id}`);
    expectKeyRefusal(body);
  });

  it("refuses a snapshot with a real-service trusted domain", async () => {
    const p = newProvider();
    const snapshot = editedSnapshot(p, "projects", (r) =>
      r.id === DEV.id ? { ...r, config: { ...(r.config as object), domains: [REAL_DOMAIN] } } : r,
    );
    expectDomainRefusal(await expectRefused(p, "/__emulator/restore", { json: snapshot }));
  });

  it("restores a snapshot of the emulator's own keys and domains", async () => {
    const p = newProvider();
    const snapshot = editedSnapshot(p, "projects", (r) =>
      r.id === DEV.id ? { ...r, config: { ...(r.config as object), domains: [OWN_DOMAIN] } } : r,
    );
    await expectJson(await request(p, "/__emulator/restore", { json: snapshot }));
    expect(p.snapshot()).toEqual(snapshot);
  });
});

describe("POST /__emulator/projects", () => {
  it("refuses given live-looking keys and real-service trusted domains", async () => {
    const p = newProvider();
    const keyRefusal = await expectRefused(p, "/__emulator/projects", {
      json: { display_name: "Copied", keys: liveKeys },
    });
    expectKeyRefusal(keyRefusal);
    expect(keyRefusal.refused.keys[0]?.where).toBe('secret server key of project "Copied"');
    expectDomainRefusal(
      await expectRefused(p, "/__emulator/projects", {
        json: { id: NEW_ID, display_name: "Copied", config: { domains: [REAL_DOMAIN] } },
      }),
    );
  });

  it("accepts the emulator's own keys and an app's domains", async () => {
    const p = newProvider();
    const made = await request(p, "/__emulator/projects", {
      json: { id: NEW_ID, display_name: "Own", keys: ownKeys, config: { domains: [OWN_DOMAIN] } },
    });
    expect(await expectJson(made, 201)).toMatchObject({ id: NEW_ID, ...ownKeys });
  });
});

describe("PATCH /__emulator/projects/:id", () => {
  it("refuses a real-service trusted domain, and keys (which it never takes)", async () => {
    const p = newProvider();
    const body = await expectRefused(p, `/__emulator/projects/${DEV.id}`, {
      method: "PATCH",
      json: { config: { domains: [OWN_DOMAIN, REAL_DOMAIN] } },
    });
    expectDomainRefusal(body);
    expect(body.refused.domains[0]?.where).toBe(`trusted domain of project ${DEV.id}`);
    const before = p.snapshot();
    expect(
      (await request(p, `/__emulator/projects/${DEV.id}`, { method: "PATCH", json: { keys: liveKeys } })).status,
    ).toBe(400);
    expect(p.snapshot()).toEqual(before);
  });

  it("accepts an app's own domains", async () => {
    const p = newProvider();
    await expectJson(
      await request(p, `/__emulator/projects/${DEV.id}`, {
        method: "PATCH",
        json: { config: { domains: [OWN_DOMAIN] } },
      }),
    );
    expect(p.store.read.projects.get(DEV.id)?.config.domains).toEqual([OWN_DOMAIN]);
  });
});

describe("POST /__emulator/fixture", () => {
  const doc = (project: Record<string, unknown>) => ({
    version: 1,
    projects: [{ id: NEW_ID, display_name: "Fixture", ...project }],
  });

  it("refuses a fixture with a live-looking key or a real-service trusted domain before loading any of it", async () => {
    const p = newProvider();
    expectKeyRefusal(await expectRefused(p, "/__emulator/fixture", { json: doc({ keys: liveKeys }) }));
    expectDomainRefusal(
      await expectRefused(p, "/__emulator/fixture", { json: doc({ config: { domains: [REAL_DOMAIN] } }) }),
    );
  });

  it("loads a fixture with the emulator's own keys", async () => {
    const p = newProvider();
    expect(
      (await request(p, "/__emulator/fixture", { json: doc({ keys: ownKeys, config: { domains: [OWN_DOMAIN] } }) }))
        .status,
    ).toBe(201);
    expect(p.store.read.projects.get(NEW_ID)?.displayName).toBe("Fixture");
  });
});

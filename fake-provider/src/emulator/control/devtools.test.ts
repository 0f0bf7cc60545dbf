import { describe, expect, it } from "vitest";
import { INTERNAL_PROJECT_ID } from "@authsim/sdk/contract";
import { api, expectJson, newProvider, request } from "../../test-support/api.ts";

/** The emulator's project control endpoint (the dashboard's "new project", fixture loading) and the page at /. */
interface Entry {
  id: string;
  display_name: string;
  publishable_client_key: string;
  secret_server_key: string;
  super_secret_admin_key: string;
}
const asSeed = (e: Entry) => ({
  id: e.id,
  display_name: e.display_name,
  keys: {
    publishable_client_key: e.publishable_client_key,
    secret_server_key: e.secret_server_key,
    super_secret_admin_key: e.super_secret_admin_key,
  },
  config: {},
});

describe("project control", () => {
  it("creates a project with fresh keys that work at once, with the seeded permission definitions", async () => {
    const p = newProvider();
    const made = await expectJson<Entry>(
      await request(p, "/__emulator/projects", { json: { display_name: "Scratch" } }),
      201,
    );
    expect(made.publishable_client_key).toMatch(/^pck_authsim_[a-z0-9]{45}$/);
    expect(made.secret_server_key).toMatch(/^ssk_/);
    expect(made.super_secret_admin_key).toMatch(/^sak_/);
    const listed = await expectJson<{ items: Entry[] }>(await request(p, "/__emulator/projects"));
    expect(listed.items.map((x) => x.display_name)).toContain("Scratch");
    const seed = asSeed(made);
    const current = await expectJson<{ id: string; display_name: string }>(
      await api(p, "/projects/current", {
        headers: { accessType: "client", projectId: seed.id, publishableClientKey: seed.keys.publishable_client_key },
      }),
    );
    expect(current).toMatchObject({ id: made.id, display_name: "Scratch" });
    const definitions = await api(p, "/team-permission-definitions", {
      headers: { accessType: "admin", projectId: seed.id, superSecretAdminKey: seed.keys.super_secret_admin_key },
    });
    expect((await expectJson<{ items: { id: string }[] }>(definitions)).items.map((d) => d.id)).toEqual(
      expect.arrayContaining(["team_admin", "team_member"]),
    );
  });

  it("takes a given id, keys and config; refuses duplicates and bad bodies; PATCH changes name and config", async () => {
    const p = newProvider();
    const id = "0b7c2a4e-1d3f-4a5b-8c6d-7e8f9a0b1c2d";
    const keys = {
      publishable_client_key: "pck_given",
      secret_server_key: "ssk_given",
      super_secret_admin_key: "sak_given",
    };
    const made = await expectJson<Entry>(
      await request(p, "/__emulator/projects", {
        json: { id, display_name: "Given", keys, config: { sign_up_enabled: false } },
      }),
      201,
    );
    expect(made).toMatchObject({ id, ...keys });
    const clientHeaders = { accessType: "client", projectId: id, publishableClientKey: "pck_given" } as const;
    const view = () =>
      api(p, "/projects/current", { headers: clientHeaders }).then((r) =>
        expectJson<{ display_name: string; config: { sign_up_enabled: boolean } }>(r),
      );
    expect((await view()).config.sign_up_enabled).toBe(false);
    expect((await request(p, "/__emulator/projects", { json: { id, display_name: "Again" } })).status).toBe(409);
    expect((await request(p, "/__emulator/projects", { json: { display_name: "" } })).status).toBe(400);
    expect(
      (await request(p, "/__emulator/projects", { json: { display_name: "x", config: { not_a_flag: true } } })).status,
    ).toBe(400);
    const patched = await request(p, `/__emulator/projects/${id}`, {
      method: "PATCH",
      json: { display_name: "Renamed", config: { sign_up_enabled: true } },
    });
    expect((await expectJson<Entry>(patched)).display_name).toBe("Renamed");
    expect(await view()).toMatchObject({ display_name: "Renamed", config: { sign_up_enabled: true } });
    expect(
      (
        await request(p, `/__emulator/projects/${INTERNAL_PROJECT_ID}`, {
          method: "PATCH",
          json: { display_name: "no" },
        })
      ).status,
    ).toBe(404);
  });

  it("answers / in process with a page that points to npm start", async () => {
    const p = newProvider();
    const page = await request(p, "/");
    expect(page.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(await page.text()).toContain("npm start");
  });
});

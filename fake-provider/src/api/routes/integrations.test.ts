import { describe, expect, it } from "vitest";
import {
  admin,
  api,
  client,
  expectJson,
  INTERNAL,
  newProvider,
  server,
  signUp,
  type TestProvider,
} from "../../test-support/api.ts";

/**
 * The Neon and custom integrations through HTTP, in process: provisioning and the project's own key, the transfer
 * link, the identity provider's whole authorization (authorize → consent → code → token), the admin views, and bad
 * input (never a 500).
 */

const NEON = `Basic ${btoa("neon-local:neon-local-secret")}`;
const CUSTOM = `Basic ${btoa("custom-local:custom-local-secret")}`;
const REDIRECT_URI = "http://localhost:30000/api/v2/auth/authorize";
const VERIFIER = "a-verifier-of-the-integration-that-is-long-enough-0123456789";
// Its S256 challenge (RFC 7636 §4.2), computed here rather than by the code under test.
const CHALLENGE = Buffer.from(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(VERIFIER))).toString(
  "base64url",
);

async function provision(provider: TestProvider, family: "neon" | "custom" = "neon") {
  const response = await api(provider, `/integrations/${family}/projects/provision`, {
    json: { display_name: "Provisioned" },
    raw: { authorization: family === "neon" ? NEON : CUSTOM },
  });
  return expectJson<{ project_id: string; super_secret_admin_key: string }>(response);
}

const keysOf = (p: { project_id: string; super_secret_admin_key: string }) => ({
  accessType: "admin" as const,
  projectId: p.project_id,
  superSecretAdminKey: p.super_secret_admin_key,
});

describe("provisioning", () => {
  it("makes a project without owner whose admin key works, and Neon's views read it", async () => {
    const provider = newProvider();
    const provisioned = await provision(provider);
    const project = await expectJson<{ display_name: string; config: { oauth_providers: { id: string }[] } }>(
      await api(provider, "/integrations/neon/projects/current", { headers: keysOf(provisioned) }),
    );
    expect(project.display_name).toBe("Provisioned");
    expect(project.config.oauth_providers.map((p) => p.id).sort()).toEqual(["github", "google"]);
    const keys = await expectJson<{ items: { description: string }[] }>(
      await api(provider, "/integrations/neon/api-keys", { headers: keysOf(provisioned) }),
    );
    expect(keys.items.map((k) => k.description)).toEqual(["Auto-generated for Neon Auth (DO NOT DELETE)"]);
  });

  it("refuses missing, malformed and unknown credentials with SCHEMA_ERROR", async () => {
    const provider = newProvider();
    for (const [authorization, line] of [
      [undefined, "headers.authorization must be defined"],
      ["Basic", 'Authorization header must be in the format "Basic <base64>"'],
      [
        `Basic ${btoa("neon-local:wrong")}`,
        "Invalid client_id:client_secret values; did you use the correct values for the integration?",
      ],
    ] as const) {
      const response = await api(provider, "/integrations/custom/projects/provision", {
        json: { display_name: "x" },
        raw: authorization ? { authorization } : {},
      });
      expect(response.status).toBe(400);
      expect(response.headers.get("x-stack-known-error")).toBe("SCHEMA_ERROR");
      expect(((await response.json()) as { error: string }).error).toContain(`  - ${line}`);
    }
  });
});

describe("transfer", () => {
  it("is confirmed once by a signed-in dashboard user, whose new team then owns the project", async () => {
    const provider = newProvider();
    const provisioned = await provision(provider, "custom");
    const start = await expectJson<{ confirmation_url: string }>(
      await api(provider, "/integrations/custom/projects/transfer/initiate", {
        json: { project_id: provisioned.project_id },
        raw: { authorization: CUSTOM },
      }),
    );
    const code = new URL(start.confirmation_url).searchParams.get("code")!;
    const user = await signUp(provider, { project: INTERNAL });
    const headers = client({ accessToken: user.access_token }, INTERNAL);
    expect(
      await expectJson(
        await api(provider, "/integrations/custom/projects/transfer/confirm/check", { headers, json: { code } }),
      ),
    ).toEqual({ is_code_valid: true });
    expect(
      await expectJson(
        await api(provider, "/integrations/custom/projects/transfer/confirm", { headers, json: { code } }),
      ),
    ).toEqual({ project_id: provisioned.project_id });
    const again = await api(provider, "/integrations/custom/projects/transfer", {
      json: { project_id: provisioned.project_id },
      raw: { authorization: CUSTOM },
    });
    expect(again.status).toBe(400);
    expect(await again.text()).toMatch(/^This project either doesn't exist/);
    const owned = await expectJson<{ items: { id: string }[] }>(await api(provider, "/internal/projects", { headers }));
    expect(owned.items.map((p) => p.id)).toContain(provisioned.project_id);
  });
});

describe("the identity provider", () => {
  it("hands the integration the chosen project's admin key: authorize → consent → code → token", async () => {
    const provider = newProvider();
    const user = await signUp(provider, { project: INTERNAL });
    const target = await provision(provider);
    const state = btoa(JSON.stringify({ details: { neon_project_name: "neon-project" } }));
    const query = new URLSearchParams({
      response_type: "code",
      client_id: "neon-local",
      redirect_uri: REDIRECT_URI,
      state,
      code_challenge: CHALLENGE,
      code_challenge_method: "S256",
    });
    const first = await api(provider, `/integrations/neon/oauth/authorize?${query}`);
    expect(first.status).toBe(307);
    const auth = new URL(first.headers.get("location")!);
    expect(auth.searchParams.get("scope")).toBe("openid");
    const second = await provider.fetch(auth.toString(), { redirect: "manual" });
    expect(second.status).toBe(303);
    const cookie = second.headers
      .getSetCookie()
      .map((c) => c.split(";")[0])
      .join("; ");
    const third = await provider.fetch(second.headers.get("location")!, { headers: { cookie }, redirect: "manual" });
    expect(third.status).toBe(307);
    const consent = new URL(third.headers.get("location")!);
    expect(consent.searchParams.get("external_project_name")).toBe("neon-project");
    const uid = consent.searchParams.get("interaction_uid")!;
    const confirmed = await expectJson<{ authorization_code: string }>(
      await api(provider, "/integrations/neon/internal/confirm", {
        headers: server({ accessToken: user.access_token }, INTERNAL),
        json: { project_id: target.project_id, interaction_uid: uid },
      }),
    );
    const done = `/integrations/neon/oauth/idp/interaction/${uid}/done?code=${confirmed.authorization_code}`;
    // A browser redirected here gets a page that posts itself to the same URL.
    const page = await api(provider, done, { raw: { cookie } });
    expect(page.headers.get("content-type")).toMatch(/^text\/html/);
    expect(await page.text()).toMatch(/<form[^>]*method="POST"/);
    const finished = await api(provider, done, { method: "POST", raw: { cookie } });
    expect(finished.status).toBe(303);
    const resumed = await provider.fetch(finished.headers.get("location")!, {
      headers: { cookie },
      redirect: "manual",
    });
    expect(resumed.status).toBe(303);
    const back = new URL(resumed.headers.get("location")!);
    expect(back.origin + back.pathname).toBe(REDIRECT_URI);
    const form = {
      grant_type: "authorization_code",
      code: back.searchParams.get("code")!,
      code_verifier: VERIFIER,
      redirect_uri: REDIRECT_URI,
    };
    const token = await expectJson<{ access_token: string; token_type: string; project_id: string }>(
      await api(provider, "/integrations/neon/oauth/token", { json: form, raw: { authorization: NEON } }),
    );
    expect(token).toMatchObject({ token_type: "api_key", project_id: target.project_id });
    // The key works, and the code was single-use.
    const project = await api(provider, "/integrations/neon/projects/current", {
      headers: keysOf({ project_id: target.project_id, super_secret_admin_key: token.access_token }),
    });
    expect(project.status).toBe(200);
    const reused = await api(provider, "/integrations/neon/oauth/token", { json: form, raw: { authorization: NEON } });
    expect(reused.status).toBe(400);
    expect(JSON.parse(await reused.text())).toMatchObject({ error: "invalid_grant" });
  });

  it("refuses an unregistered redirect URI and a wrong consent code without a 500", async () => {
    const provider = newProvider();
    const bad = await api(
      provider,
      `/integrations/custom/oauth/idp/auth?client_id=custom-local&redirect_uri=${encodeURIComponent("https://evil.example/cb")}&response_type=code&scope=openid`,
    );
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ error: "invalid_redirect_uri" });
    const done = await api(provider, "/integrations/custom/oauth/idp/interaction/x/done?code=nope", { method: "POST" });
    expect(done.status).toBe(400);
    expect(await done.text()).toBe("Invalid authorization code. Please try again.");
    const unknown = await api(provider, "/integrations/custom/oauth/idp/nowhere", { method: "DELETE" });
    expect(unknown.status).toBe(404);
  });
});

describe("Neon's admin views", () => {
  it("add, list and delete trusted domains and OAuth providers of the calling project", async () => {
    const provider = newProvider();
    const headers = keysOf(await provision(provider));
    expect(
      (await api(provider, "/integrations/neon/domains", { headers, json: { domain: "https://b.example.com" } }))
        .status,
    ).toBe(201);
    await api(provider, "/integrations/neon/domains", { headers, json: { domain: "https://a.example.com" } });
    const path = await api(provider, "/integrations/neon/domains", {
      headers,
      json: { domain: "https://a.example.com/x" },
    });
    expect(path.headers.get("x-stack-known-error")).toBe("SCHEMA_ERROR");
    await api(provider, `/integrations/neon/domains/${encodeURIComponent("https://b.example.com")}`, {
      headers,
      method: "DELETE",
    });
    expect(await expectJson(await api(provider, "/integrations/neon/domains", { headers }))).toEqual({
      items: [{ domain: "https://a.example.com" }],
      is_paginated: false,
    });
    const twice = await api(provider, "/integrations/neon/oauth-providers", {
      headers,
      json: { id: "google", type: "shared" },
    });
    expect(twice.status).toBe(400);
    const updated = await api(provider, "/integrations/neon/oauth-providers/github", {
      headers,
      method: "PATCH",
      json: { type: "standard", client_id: "id", client_secret: "secret" },
    });
    expect(await expectJson(updated)).toEqual({
      id: "github",
      type: "standard",
      client_id: "id",
      client_secret: "secret",
    });
    expect(
      (await api(provider, "/integrations/neon/oauth-providers/google", { headers, method: "DELETE" })).status,
    ).toBe(200);
    expect(
      (await api(provider, "/integrations/neon/oauth-providers/google", { headers, method: "DELETE" })).status,
    ).toBe(404);
    const list = await expectJson<{ items: { id: string }[] }>(
      await api(provider, "/integrations/neon/oauth-providers", { headers }),
    );
    expect(list.items.map((p) => p.id)).toEqual(["github"]);
    const webhook = await api(provider, "/integrations/neon/webhooks", {
      headers: admin(),
      raw: { authorization: NEON },
      json: { url: "http://localhost:12345/hook" },
    });
    expect(await expectJson(webhook)).toMatchObject({ secret: expect.stringMatching(/^whsec_/) });
  });
});

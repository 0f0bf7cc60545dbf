import { describe, expect } from "vitest";
import { callerHeaders, INTERNAL_PROJECT_ID, operationPath, type OperationId } from "@authsim/sdk/contract";
import { internalProjectSeed } from "@authsim/fixtures";
import type { Target } from "../targets.ts";
import { internalUser, itIf, uniqueTag, type Requirement } from "./support.ts";

/**
 * The Neon and custom integrations end to end (upstream: /integrations/<family>/*): an integration provisions a project
 * and uses its admin key; it hands a user a transfer link the dashboard confirms; it gets a project's admin key through
 * the integration's OpenID Connect provider (authorize → consent → code → token); and Neon's admin views change the
 * project they are called for. Each family's routes are the same, so every case runs for both.
 */

const NO_DEV_CLIENTS_REASON =
  "needs the real development environment's integration clients (neon-local, custom-local), which a hosted service does not have";
const families = ["neon", "custom"] as const;
type Family = (typeof families)[number];
const basic = (family: Family) => `Basic ${btoa(`${family}-local:${family}-local-secret`)}`;
const REDIRECT_URI = "http://localhost:30000/api/v2/auth/authorize";

interface Call {
  query?: Record<string, string>;
  params?: Record<string, string>;
  json?: unknown;
  headers?: Record<string, string>;
  method?: string;
}

function call(target: Target, id: OperationId, { query, params, json, headers, method }: Call = {}): Promise<Response> {
  const url = new URL(`${target.baseUrl}/api/v1${operationPath(id, params)}`);
  for (const [k, v] of Object.entries(query ?? {})) url.searchParams.set(k, v);
  return target.fetch(url, {
    method: method ?? (json === undefined ? "GET" : "POST"),
    headers: { ...(json === undefined ? {} : { "content-type": "application/json" }), ...headers },
    body: json === undefined ? null : JSON.stringify(json),
    redirect: "manual",
  });
}

async function ok<T>(response: Promise<Response>, status = 200): Promise<T> {
  const answer = await response;
  const text = await answer.text();
  expect({ status: answer.status, text }).toMatchObject({ status });
  return JSON.parse(text) as T;
}

const id = (family: Family, name: string) => `${family}${name}` as OperationId;

async function provision(target: Target, family: Family) {
  return ok<{ project_id: string; super_secret_admin_key: string }>(
    call(target, id(family, "ProvisionProject"), {
      json: { display_name: uniqueTag("provisioned") },
      headers: { authorization: basic(family) },
    }),
  );
}

const adminOf = (target: Target, p: { project_id: string; super_secret_admin_key: string }) =>
  callerHeaders({ projectId: p.project_id, accessType: "admin", superSecretAdminKey: p.super_secret_admin_key });

/** The dashboard's calls on `internal`: a signed-in user's, with the local-development keys. */
async function dashboardHeaders(target: Target, accessType: "client" | "server") {
  const { app } = await internalUser(target);
  const tokens = await app.getAuthJson();
  return callerHeaders({
    projectId: INTERNAL_PROJECT_ID,
    accessType,
    publishableClientKey: internalProjectSeed.keys.publishable_client_key,
    secretServerKey: internalProjectSeed.keys.secret_server_key,
    accessToken: tokens.accessToken ?? undefined,
  });
}

const cookiesOf = (response: Response) =>
  response.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");

export function integrationCases(getTarget: () => Target): void {
  const devClients: Requirement = [getTarget().controls !== null, NO_DEV_CLIENTS_REASON];
  const it = itIf(devClients);

  for (const family of families) {
    describe(`the ${family} integration`, () => {
      it("provisions a project whose admin key is the integration's, and refuses unknown credentials", async () => {
        const target = getTarget();
        const provisioned = await provision(target, family);
        const domains = await ok<{ items: unknown[] }>(
          call(target, id(family, "ListDomains"), { headers: adminOf(target, provisioned) }),
        );
        expect(domains.items).toEqual([]);
        const refused = await call(target, id(family, "ProvisionProject"), {
          json: { display_name: "x" },
          headers: { authorization: `Basic ${btoa(`${family}-local:wrong`)}` },
        });
        expect(refused.status).toBe(400);
        expect(refused.headers.get("x-stack-known-error")).toBe("SCHEMA_ERROR");
      });

      it("adds and deletes trusted domains of the calling project", async () => {
        const target = getTarget();
        const headers = adminOf(target, await provision(target, family));
        await ok(
          call(target, id(family, "CreateDomain"), { headers, json: { domain: "https://kept.example.com" } }),
          201,
        );
        await ok(
          call(target, id(family, "CreateDomain"), { headers, json: { domain: "https://gone.example.com" } }),
          201,
        );
        await ok(
          call(target, id(family, "DeleteDomain"), {
            headers,
            params: { domain: "https://gone.example.com" },
            method: "DELETE",
          }),
        );
        expect(await ok(call(target, id(family, "ListDomains"), { headers }))).toEqual({
          items: [{ domain: "https://kept.example.com" }],
          is_paginated: false,
        });
      });

      it("transfers a provisioned project once, to a new team of the confirming dashboard user", async () => {
        const target = getTarget();
        const provisioned = await provision(target, family);
        const integration = { authorization: basic(family) };
        const readiness = await ok<{ message: string }>(
          call(target, id(family, "TransferReadiness"), {
            headers: integration,
            query: { project_id: provisioned.project_id },
          }),
        );
        expect(readiness.message).toMatch(/^Ready to transfer/);
        await ok(
          call(target, id(family, "TransferStart"), {
            headers: integration,
            json: { project_id: provisioned.project_id },
          }),
        );
        const { confirmation_url } = await ok<{ confirmation_url: string }>(
          call(target, id(family, "TransferInitiate"), {
            headers: integration,
            json: { project_id: provisioned.project_id },
          }),
        );
        const code = new URL(confirmation_url).searchParams.get("code")!;
        const headers = await dashboardHeaders(target, "client");
        expect(await ok(call(target, id(family, "TransferConfirmCheck"), { headers, json: { code } }))).toEqual({
          is_code_valid: true,
        });
        expect(await ok(call(target, id(family, "TransferConfirm"), { headers, json: { code } }))).toEqual({
          project_id: provisioned.project_id,
        });
        const again = await call(target, id(family, "TransferConfirm"), { headers, json: { code } });
        expect(again.status).toBe(409);
        const gone = await call(target, id(family, "TransferReadiness"), {
          headers: integration,
          query: { project_id: provisioned.project_id },
        });
        expect(gone.status).toBe(400);
      });

      it("hands the integration a chosen project's admin key through its OpenID Connect provider", async () => {
        const target = getTarget();
        const text = await call(target, id(family, "OauthEndpoints"));
        expect(await text.text()).toContain(`/integrations/${family}/oauth/token`);
        const chosen = await provision(target, family);
        const verifier = `${uniqueTag("verifier")}-0123456789-0123456789`;
        const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(verifier));
        const challenge = btoa(String.fromCharCode(...new Uint8Array(digest)))
          .replace(/\+/g, "-")
          .replace(/\//g, "_")
          .replace(/=+$/, "");
        const state = btoa(JSON.stringify({ details: { external_project_name: "Their project" } }));
        const authorize = await call(target, id(family, "OauthAuthorize"), {
          query: {
            response_type: "code",
            client_id: `${family}-local`,
            redirect_uri: REDIRECT_URI,
            state,
            code_challenge: challenge,
            code_challenge_method: "S256",
          },
        });
        expect(authorize.status).toBe(307);
        const auth = await target.fetch(authorize.headers.get("location")!, { redirect: "manual" });
        expect(auth.status).toBe(303);
        const cookie = cookiesOf(auth);
        const interaction = await target.fetch(auth.headers.get("location")!, {
          headers: { cookie },
          redirect: "manual",
        });
        expect(interaction.status).toBe(307);
        const consent = new URL(interaction.headers.get("location")!);
        expect(consent.pathname).toBe(`/integrations/${family}/confirm`);
        expect(consent.searchParams.get("external_project_name")).toBe("Their project");
        const uid = consent.searchParams.get("interaction_uid")!;
        const { authorization_code } = await ok<{ authorization_code: string }>(
          call(target, id(family, "InternalConfirm"), {
            headers: await dashboardHeaders(target, "server"),
            json: { project_id: chosen.project_id, interaction_uid: uid, external_project_name: "Their project" },
          }),
        );
        const done = new URL(`${auth.headers.get("location")!}/done`);
        done.searchParams.set("code", authorization_code);
        const finished = await target.fetch(done, { method: "POST", headers: { cookie }, redirect: "manual" });
        expect(finished.status).toBe(303);
        const resumed = await target.fetch(finished.headers.get("location")!, {
          headers: { cookie },
          redirect: "manual",
        });
        const back = new URL(resumed.headers.get("location")!);
        expect(back.searchParams.get("state")).toBe(state);
        const form = {
          grant_type: "authorization_code",
          code: back.searchParams.get("code")!,
          code_verifier: verifier,
          redirect_uri: REDIRECT_URI,
        };
        const token = await ok<{ access_token: string; token_type: string; project_id: string }>(
          call(target, id(family, "OauthToken"), { json: form, headers: { authorization: basic(family) } }),
        );
        expect(token).toMatchObject({ token_type: "api_key", project_id: chosen.project_id });
        const keys = adminOf(target, { project_id: chosen.project_id, super_secret_admin_key: token.access_token });
        await ok(call(target, id(family, "ListDomains"), { headers: keys }));
        // The provider's own discovery document names its endpoints.
        const discovery = await ok<{ token_endpoint: string }>(
          target.fetch(authorize.headers.get("location")!.replace(/\/auth\?.*$/, "/.well-known/openid-configuration")),
        );
        expect(discovery.token_endpoint).toMatch(new RegExp(`/integrations/${family}/oauth/idp/token$`));
      });
    });
  }

  describe("Neon's own routes", () => {
    it("read and change the calling project: the project, its API keys, its OAuth providers, a webhook", async () => {
      const target = getTarget();
      const provisioned = await provision(target, "neon");
      const headers = adminOf(target, provisioned);
      await ok(
        call(target, "neonProjectConnection", {
          query: { project_id: provisioned.project_id },
          json: { connection_strings: [{ branch_id: "main", connection_string: "postgres://db.example/main" }] },
          headers: { authorization: basic("neon") },
        }),
      );
      const project = await ok<{ display_name: string }>(call(target, "neonGetProject", { headers }));
      const renamed = await ok<{ display_name: string }>(
        call(target, "neonUpdateProject", {
          headers,
          method: "PATCH",
          json: { display_name: `${project.display_name}!` },
        }),
      );
      expect(renamed.display_name).toBe(`${project.display_name}!`);
      const created = await ok<{ id: string; secret_server_key: string }>(
        call(target, "neonCreateApiKey", {
          headers,
          json: {
            description: "server key",
            expires_at_millis: Date.UTC(2100, 0, 1),
            has_publishable_client_key: false,
            has_secret_server_key: true,
            has_super_secret_admin_key: false,
          },
        }),
      );
      const read = await ok<{ secret_server_key: { last_four: string } }>(
        call(target, "neonGetApiKey", { headers, params: { api_key_id: created.id } }),
      );
      expect(read.secret_server_key.last_four).toBe(created.secret_server_key.slice(-4));
      await ok(
        call(target, "neonUpdateApiKey", {
          headers,
          params: { api_key_id: created.id },
          method: "PATCH",
          json: { revoked: true },
        }),
      );
      const keys = await ok<{ items: { id: string }[] }>(call(target, "neonListApiKeys", { headers }));
      expect(keys.items.map((k) => k.id)).toContain(created.id);
      await ok(call(target, "neonCreateOAuthProvider", { headers, json: { id: "microsoft", type: "shared" } }), 201);
      await ok(
        call(target, "neonUpdateOAuthProvider", {
          headers,
          params: { oauth_provider_id: "microsoft" },
          method: "PATCH",
          json: { type: "standard", client_id: "id", client_secret: "secret" },
        }),
      );
      await ok(
        call(target, "neonDeleteOAuthProvider", { headers, params: { oauth_provider_id: "google" }, method: "DELETE" }),
      );
      const providers = await ok<{ items: { id: string; type: string }[] }>(
        call(target, "neonListOAuthProviders", { headers }),
      );
      expect(providers.items.map((p) => `${p.id}:${p.type}`).sort()).toEqual(["github:shared", "microsoft:standard"]);
      const webhook = await ok<{ secret: string }>(
        call(target, "neonCreateWebhook", {
          headers: { ...headers, authorization: basic("neon") },
          json: { url: "https://hooks.example.com/stack" },
        }),
      );
      expect(webhook.secret).toMatch(/^whsec_/);
    });
  });
}

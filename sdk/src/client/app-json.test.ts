import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { StackAdminApp } from "../admin/admin-app.ts";
import { manualClock } from "../runtime/clock.ts";
import { seededRandom } from "../runtime/ids.ts";
import { StackServerApp } from "../server/server-app.ts";
import { memoryTokenStore } from "../session/token-store.ts";
import { fakeFetch, json } from "../test-support/fake-fetch.ts";
import { router } from "../test-support/router.ts";
import { adminProjectJson, clientProjectJson } from "../test-support/wire-fixtures.ts";
import { AppConfigError, type AppConfigErrorCode } from "./app-config-error.ts";
import { memoryCookieDocument } from "./browser-env.ts";
import { stackAppInternalsSymbol } from "./app-internals.ts";
import type { ClientAppJson } from "./app-json.ts";
import type { StackClientAppOptions } from "./app-options.ts";
import { StackClientApp } from "./client-app.ts";

/**
 * The client app's JSON form (spec §5): what travels, the unique identifier used once, and JSON that names an existing
 * app having to match it (project first, then configuration), each refused with its own AppConfigError code.
 */

const PROJECT_ID = "5a4b3c2d-1e0f-4a9b-8c7d-6e5f4a3b2c1d";
const OTHER_PROJECT_ID = "0f1e2d3c-4b5a-4978-8a6b-5c4d3e2f1a0b";
const T0 = 1_750_000_000_000;
let ids = 0;
/** The registry lives as long as the module: every case uses identifiers of its own. */
const freshId = (label: string) => `${label}-${(ids += 1)}`;

const platform = () => {
  const ff = fakeFetch(router({ "GET /projects/current": () => json({ ...clientProjectJson(), id: PROJECT_ID }) }));
  return { fetch: ff.fetch, clock: manualClock(T0), calls: ff.calls };
};

function clientApp(extra: Partial<StackClientAppOptions> = {}): StackClientApp {
  const { fetch, clock } = platform();
  return new StackClientApp({
    projectId: PROJECT_ID,
    publishableClientKey: "pck_test",
    baseUrl: "http://api.test",
    tokenStore: "memory",
    fetch,
    clock,
    ...extra,
  });
}

const fromJson = (json: unknown, extra: Partial<StackClientAppOptions> = {}) =>
  StackClientApp[stackAppInternalsSymbol].fromClientJson(json, { ...platform(), ...extra });

function refusal(run: () => unknown): { code: AppConfigErrorCode; message: string } {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(AppConfigError);
    return { code: (error as AppConfigError).code, message: (error as AppConfigError).message };
  }
  throw new Error("expected an AppConfigError");
}

describe("toClientJson", () => {
  it("writes the options a browser needs, with a v4 identifier drawn from the app's random source, the same every time", () => {
    const app = clientApp({
      urls: { signIn: "/login" },
      redirectMethod: "window",
      extraRequestHeaders: { "x-app": "1" },
      random: seededRandom("app-json"),
    });
    const json = app[stackAppInternalsSymbol].toClientJson();
    expect(json).toEqual({
      uniqueIdentifier: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/),
      projectId: PROJECT_ID,
      baseUrl: "http://api.test",
      publishableClientKey: "pck_test",
      tokenStore: "memory",
      urls: { signIn: "/login" },
      redirectMethod: "window",
      extraRequestHeaders: { "x-app": "1" },
    });
    expect(app[stackAppInternalsSymbol].toClientJson()).toEqual(json);
    expect(JSON.parse(JSON.stringify(json))).toEqual(json);
  });

  it("gives a server or admin app's client configuration only: no secret or admin key leaves in it", () => {
    const { fetch, clock } = platform();
    const server = new StackServerApp({
      projectId: PROJECT_ID,
      publishableClientKey: "pck_test",
      secretServerKey: "ssk_very_secret",
      baseUrl: "http://api.test",
      tokenStore: "cookie",
      document: memoryCookieDocument(),
      fetch,
      clock,
    });
    const admin = new StackAdminApp({
      projectId: PROJECT_ID,
      secretServerKey: "ssk_very_secret",
      superSecretAdminKey: "sak_very_secret",
      baseUrl: "http://api.test",
      tokenStore: null,
      fetch,
      clock,
    });
    for (const json of [
      server[stackAppInternalsSymbol].toClientJson(),
      admin[stackAppInternalsSymbol].toClientJson(),
    ]) {
      expect(JSON.stringify(json)).not.toMatch(/ssk_very_secret|sak_very_secret/);
    }
    expect(server[stackAppInternalsSymbol].toClientJson()).toMatchObject({
      tokenStore: "cookie",
      publishableClientKey: "pck_test",
    });
  });

  it("refuses options JSON cannot carry (APP_NOT_SERIALIZABLE): a custom token store, a request, a router's navigate", () => {
    for (const extra of [
      { tokenStore: memoryTokenStore() },
      { tokenStore: { headers: { "x-stack-auth": "{}" } } },
      { redirectMethod: { navigate: () => undefined } },
    ]) {
      expect(refusal(() => clientApp(extra)[stackAppInternalsSymbol].toClientJson()).code).toBe("APP_NOT_SERIALIZABLE");
    }
  });
});

describe("fromClientJson", () => {
  it("builds a working client app from JSON with a new identifier, and gives that same app for the same JSON again", async () => {
    const json: ClientAppJson = {
      uniqueIdentifier: freshId("handed-over"),
      projectId: PROJECT_ID,
      baseUrl: "http://api.test",
      publishableClientKey: "pck_test",
      tokenStore: "memory",
      urls: { signIn: "/login" },
    };
    const { fetch, clock, calls } = platform();
    const app = StackClientApp[stackAppInternalsSymbol].fromClientJson(json, { fetch, clock });
    expect(app).toBeInstanceOf(StackClientApp);
    expect(app.urls.signIn).toBe("/login");
    expect((await app.getProject()).id).toBe(PROJECT_ID);
    expect(calls[0]!.headers["x-stack-publishable-client-key"]).toBe("pck_test");
    expect(app[stackAppInternalsSymbol].toClientJson()).toEqual(json);
    // Key order does not matter: the same configuration is the same app.
    const reordered = Object.fromEntries(Object.entries(json).reverse());
    expect(fromJson(reordered)).toBe(app);
  });

  it("gives back the very app that wrote the JSON (a server render, then hydration in the same process)", () => {
    const app = clientApp();
    expect(fromJson(app[stackAppInternalsSymbol].toClientJson())).toBe(app);
  });

  it("lets an identifier be used only once (UNIQUE_IDENTIFIER_TAKEN)", () => {
    const id = freshId("taken");
    clientApp({ uniqueIdentifier: id });
    const refused = refusal(() => clientApp({ uniqueIdentifier: id }));
    expect(refused).toEqual({
      code: "UNIQUE_IDENTIFIER_TAKEN",
      message: expect.stringContaining(`"${id}" already exists`),
    });
    const written = clientApp()[stackAppInternalsSymbol].toClientJson();
    expect(refusal(() => clientApp({ uniqueIdentifier: written.uniqueIdentifier })).code).toBe(
      "UNIQUE_IDENTIFIER_TAKEN",
    );
  });

  it("refuses JSON of another project under an existing app's identifier (PROJECT_ID_MISMATCH), before comparing the rest", () => {
    const json = clientApp()[stackAppInternalsSymbol].toClientJson();
    const refused = refusal(() => fromJson({ ...json, projectId: OTHER_PROJECT_ID, baseUrl: "http://elsewhere.test" }));
    expect(refused.code).toBe("PROJECT_ID_MISMATCH");
    expect(refused.message).toBe(
      `The project ID of the provided app JSON (${OTHER_PROJECT_ID}) does not match the project ID of the existing client app with the same unique identifier (${PROJECT_ID}).`,
    );
  });

  it("refuses any other difference from the existing app's configuration (APP_JSON_MISMATCH), naming what differs", () => {
    const app = clientApp({ urls: { signIn: "/login" }, extraRequestHeaders: { "x-app": "1" } });
    const json = app[stackAppInternalsSymbol].toClientJson();
    const change = fc.constantFrom<[string, Partial<ClientAppJson>]>(
      ["baseUrl", { baseUrl: "http://other.test" }],
      ["publishableClientKey", { publishableClientKey: "pck_other" }],
      ["tokenStore", { tokenStore: "cookie" }],
      ["tokenStore", { tokenStore: null }],
      ["urls", { urls: { signIn: "/sign-in" } }],
      ["urls", { urls: { signIn: "/login", signUp: "/join" } }],
      ["redirectMethod", { redirectMethod: "none" }],
      ["extraRequestHeaders", { extraRequestHeaders: {} }],
    );
    fc.assert(
      fc.property(fc.uniqueArray(change, { minLength: 1, maxLength: 3, selector: ([key]) => key }), (changes) => {
        const changed = Object.assign({ ...json }, ...changes.map(([, c]) => c)) as ClientAppJson;
        const refused = refusal(() => fromJson(changed));
        expect(refused.code).toBe("APP_JSON_MISMATCH");
        expect(refused.message).toContain(
          `(it differs in ${changes
            .map(([key]) => key)
            .sort()
            .join(", ")})`,
        );
      }),
      { numRuns: 60 },
    );
    expect(fromJson(json)).toBe(app);
  });

  it("refuses what is not a client app's JSON form (INVALID_APP_JSON)", () => {
    const id = freshId("invalid");
    for (const bad of [
      null,
      "{}",
      { uniqueIdentifier: id, tokenStore: "memory" },
      { uniqueIdentifier: id, projectId: PROJECT_ID, tokenStore: "nextjs-cookie" },
      { uniqueIdentifier: id, projectId: PROJECT_ID, tokenStore: null, secretServerKey: "ssk" },
    ]) {
      expect(refusal(() => fromJson(bad)).code, JSON.stringify(bad)).toBe("INVALID_APP_JSON");
    }
    // Nothing was claimed by the refusals.
    expect(fromJson({ uniqueIdentifier: id, projectId: PROJECT_ID, tokenStore: null })).toBeInstanceOf(StackClientApp);
  });
});

describe("owned-project apps (spec §5)", () => {
  const ownedJson = { ...adminProjectJson(), id: PROJECT_ID };

  it("must have no token store (OWNED_APP_HAS_TOKEN_STORE); without one they are the project's admin app", () => {
    const { fetch, clock } = platform();
    const session = async () => "admin-access-token";
    const withStore = new StackAdminApp({
      projectId: PROJECT_ID,
      baseUrl: "http://api.test",
      projectOwnerSession: session,
      tokenStore: "memory",
      fetch,
      clock,
    });
    expect(refusal(() => withStore.ownedProjectFromJson(ownedJson)).code).toBe("OWNED_APP_HAS_TOKEN_STORE");
    const owned = new StackAdminApp({
      projectId: PROJECT_ID,
      baseUrl: "http://api.test",
      projectOwnerSession: session,
      tokenStore: null,
      fetch,
      clock,
    });
    const project = owned.ownedProjectFromJson(ownedJson);
    expect(project).toMatchObject({ id: PROJECT_ID, displayName: "Stack Dashboard" });
    expect(project.app).toBe(owned);
  });

  it("take only their own project's JSON (PROJECT_ID_MISMATCH)", () => {
    const { fetch, clock } = platform();
    const owned = new StackAdminApp({
      projectId: OTHER_PROJECT_ID,
      baseUrl: "http://api.test",
      projectOwnerSession: async () => "t",
      tokenStore: null,
      fetch,
      clock,
    });
    expect(refusal(() => owned.ownedProjectFromJson(ownedJson))).toEqual({
      code: "PROJECT_ID_MISMATCH",
      message: expect.stringContaining(
        `(${PROJECT_ID}) does not match the project ID of the app (${OTHER_PROJECT_ID})`,
      ),
    });
  });
});

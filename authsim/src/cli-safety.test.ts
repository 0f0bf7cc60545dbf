import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { devProjectSeed, internalProjectSeed } from "@authsim/fixtures";
import { seededRandom } from "@authsim/sdk/runtime";
import { createFakeProvider } from "@authsim/fake-provider";
import { fixtureState, isRealServiceHost, looksLikeLiveKey, stateRefusal, storeState } from "./cli-safety.ts";
import { emulatorProjectKey } from "@authsim/fake-provider/dev-server";

/** The dev server's refusal of real-looking keys and real-service domains (cli-safety.ts). */

// The real service's keys: a prefix and 45 lowercase Crockford base32 characters (224 random bits).
const CROCKFORD = "0123456789abcdefghjkmnpqrstvwxyz";
const body = (min: number, max: number) =>
  fc.string({ unit: fc.constantFrom(...CROCKFORD), minLength: min, maxLength: max });
const prefix = fc.constantFrom("pck_", "ssk_", "sak_");
const liveKey = fc.tuple(prefix, body(45, 45)).map(([p, b]) => p + b);
const marker = fc.constantFrom("authsim", "test", "dev", "AUTHSIM", "Dev");

describe("live-looking keys", () => {
  it("refuses every key of the real service's shape", () => {
    fc.assert(fc.property(liveKey, (key) => looksLikeLiveKey(key)));
  });

  it("refuses real-shaped keys cut to 32 characters or more, re-cased, padded or with an extra unmarked word", () => {
    fc.assert(fc.property(prefix, body(32, 60), (p, b) => looksLikeLiveKey(p + b)));
    fc.assert(fc.property(liveKey, (key) => looksLikeLiveKey(key.toUpperCase()) && looksLikeLiveKey(` ${key}\n`)));
    fc.assert(
      fc.property(liveKey, fc.constantFrom("prod", "live", "x"), (key, word) =>
        looksLikeLiveKey(key.replace("_", `_${word}_`)),
      ),
    );
  });

  it("lets a key through once a word of it is authsim, test or dev, wherever the word stands", () => {
    fc.assert(
      fc.property(
        prefix,
        body(32, 60),
        marker,
        fc.constantFrom("_", "-"),
        fc.boolean(),
        (p, b, m, sep, before) => !looksLikeLiveKey(before ? `${p}${m}${sep}${b}` : `${p}${b}${sep}${m}`),
      ),
    );
  });

  it("does not take a marker hidden inside the random run for a marker", () => {
    expect(looksLikeLiveKey(`pck_${"a".repeat(20)}authsim${"b".repeat(18)}`)).toBe(true);
    expect(looksLikeLiveKey(`ssk_test${"0".repeat(41)}`)).toBe(true);
  });

  it("lets through keys without the real prefixes, and short ones", () => {
    fc.assert(
      fc.property(
        body(45, 45),
        (b) => !looksLikeLiveKey(b) && !looksLikeLiveKey(`sk_user_${b}`) && !looksLikeLiveKey(`xck_${b}`),
      ),
    );
    fc.assert(fc.property(prefix, body(0, 31), (p, b) => !looksLikeLiveKey(p + b)));
    for (const key of [
      "pck_test",
      "ssk_very_secret",
      "sak_wrong",
      "",
      "pck_",
      "this-publishable-client-key-is-for-local-development-only",
    ]) {
      expect(looksLikeLiveKey(key)).toBe(false);
    }
  });

  it("never refuses a key the emulator generates, nor the fixtures' keys", () => {
    fc.assert(
      fc.property(
        fc.string(),
        fc.constantFrom("pck", "ssk", "sak") as fc.Arbitrary<"pck" | "ssk" | "sak">,
        (seed, kind) => !looksLikeLiveKey(emulatorProjectKey(seededRandom(seed), kind)),
      ),
    );
    for (const key of [...Object.values(devProjectSeed.keys), ...Object.values(internalProjectSeed.keys)])
      expect(looksLikeLiveKey(key)).toBe(false);
  });
});

describe("real-service hosts", () => {
  it("recognises the real service's hosts as URLs, bare hosts and wildcards", () => {
    for (const domain of [
      "https://app.stack-auth.com",
      "https://api.stack-auth.com/api/v1",
      "stack-auth.com",
      "HTTPS://App.Hexclave.com:443/",
      "https://*.hexclave.com",
      "https://my-app.built-with-stack-auth.com",
      "app.stack-auth.com.",
    ]) {
      expect(isRealServiceHost(domain), domain).toBe(true);
    }
  });

  it("lets through an app's own domains, lookalikes included", () => {
    for (const domain of [
      "http://localhost:3000",
      "https://example.com",
      "https://notstack-auth.com",
      "https://stack-auth.com.example.org",
      "https://x.test/stack-auth.com",
    ]) {
      expect(isRealServiceHost(domain), domain).toBe(false);
    }
  });
});

const LIVE = `ssk_${"q".repeat(45)}`;

describe("refusing a fixture or a snapshot", () => {
  it("names each live-looking key by its first 8 characters, its project and the file, and says how to fix it", () => {
    const doc = {
      version: 1,
      projects: [
        {
          id: "p-1",
          keys: {
            publishable_client_key: "pck_authsim_x",
            secret_server_key: LIVE,
            super_secret_admin_key: "sak_dev_1",
          },
        },
      ],
    };
    const reason = stateRefusal("the fixture /tmp/f.json", fixtureState(doc));
    expect(reason).toContain("the fixture /tmp/f.json");
    expect(reason).toContain("secret server key of project p-1: ssk_qqqq…");
    expect(reason).not.toContain("q".repeat(5));
    expect(reason).toMatch(/pck_authsim_…/);
    expect(reason).not.toMatch(/pck_authsim_x|sak_dev_1/);
  });

  it("refuses trusted domains on the real service's hosts", () => {
    const doc = {
      projects: [
        {
          id: "p-2",
          config: {
            domains: [
              { domain: "https://app.stack-auth.com", handler_path: "/handler" },
              { domain: "https://ok.example" },
            ],
          },
        },
      ],
    };
    const reason = stateRefusal("the fixture f.json", fixtureState(doc));
    expect(reason).toContain("trusted domain of project p-2: https://app.stack-auth.com");
    expect(reason).not.toContain("ok.example");
  });

  it("accepts the shipped fixtures' shape and anything malformed it cannot read keys from", () => {
    expect(
      stateRefusal("f", fixtureState({ projects: [{ id: devProjectSeed.id, keys: devProjectSeed.keys }] })),
    ).toBeNull();
    for (const doc of [
      null,
      3,
      "x",
      [],
      { projects: "no" },
      { projects: [null, { keys: [LIVE] }, { config: { domains: "x" } }] },
    ]) {
      expect(stateRefusal("f", fixtureState(doc))).toBeNull();
    }
    expect(stateRefusal("f", fixtureState({ projects: [{ keys: { other_key: LIVE } }] }))).toContain(
      "other_key of project #1",
    );
  });

  it("reads a restored state's key sets and domains, and passes a fresh provider's", async () => {
    const provider = createFakeProvider();
    expect(
      stateRefusal(
        "s",
        storeState({
          apiKeySets: provider.store.read.apiKeySets.values(),
          projects: provider.store.read.projects.values(),
        }),
      ),
    ).toBeNull();
    const state = storeState({
      apiKeySets: [
        {
          id: "k1",
          projectId: "p-3",
          description: "",
          createdAtMillis: 0,
          expiresAtMillis: null,
          manuallyRevokedAtMillis: null,
          publishableClientKey: null,
          secretServerKey: LIVE,
          superSecretAdminKey: null,
        },
      ],
      projects: [],
    });
    expect(stateRefusal("the snapshot s.json", state)).toContain(
      "secret server key of project p-3 (key set k1): ssk_qqqq…",
    );
  });
});

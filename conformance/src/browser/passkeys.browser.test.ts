import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { chromium, type BrowserContext } from "playwright-core";
import { devProjectSeed as dev } from "@authsim/fixtures";
import { CHROMIUM_PATH, describeInChromium } from "@authsim/fake-provider/testing";
import { serveFakeProvider, type ServedProvider } from "../harness/serve.ts";

/**
 * Passkeys with a real browser (issue 5): Debian's Chromium, driven by playwright-core, with Chromium's own WebAuthn
 * virtual authenticator (DevTools protocol) — the browser makes the attestation and the assertion, the fake provider
 * verifies them. Skipped locally without Chromium; with CI=true its absence fails (.ci/run installs it).
 */

let served: ServedProvider;
let context: BrowserContext;
let profile: string;

describeInChromium("passkeys in Chromium with its virtual authenticator", () => {
  beforeAll(async () => {
    served = await serveFakeProvider();
    profile = await mkdtemp(join(tmpdir(), "authsim-passkeys-"));
    context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM_PATH,
      headless: true,
      args: ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run"],
    });
  }, 60_000);
  afterAll(async () => {
    await context?.close();
    await rm(profile, { recursive: true, force: true });
    await served?.close();
  });

  it("registers a passkey and signs in with it, the ceremonies run by the browser", async () => {
    const port = new URL(served.baseUrl).port;
    // A page on localhost (a secure context the dev project trusts); it talks to the provider same-origin.
    const origin = `http://localhost:${port}`;
    const page = await context.newPage();
    await page.goto(`${origin}/health`);
    const cdp = await context.newCDPSession(page);
    await cdp.send("WebAuthn.enable");
    const { authenticatorId } = await cdp.send("WebAuthn.addVirtualAuthenticator", {
      options: {
        protocol: "ctap2",
        transport: "internal",
        hasResidentKey: true,
        hasUserVerification: true,
        isUserVerified: true,
        automaticPresenceSimulation: true,
      },
    });

    const headers = {
      "content-type": "application/json",
      "x-stack-access-type": "client",
      "x-stack-project-id": dev.id,
      "x-stack-publishable-client-key": dev.keys.publishable_client_key,
    };
    const signUp = await fetch(`${served.baseUrl}/api/v1/auth/password/sign-up`, {
      method: "POST",
      headers,
      body: JSON.stringify({ email: "chromium-passkey@example.com", password: "password-123" }),
    });
    const { access_token: accessToken, user_id: userId } = (await signUp.json()) as {
      access_token: string;
      user_id: string;
    };

    const result = await page.evaluate(
      async ({ headers, accessToken }) => {
        type Json = Record<string, unknown>;
        const post = async (path: string, body: unknown, token?: string): Promise<Json> => {
          const response = await fetch(`/api/v1${path}`, {
            method: "POST",
            headers: { ...headers, ...(token ? { "x-stack-access-token": token } : {}) },
            body: JSON.stringify(body),
          });
          const json = (await response.json()) as Json;
          if (!response.ok) throw new Error(`${path}: ${response.status} ${JSON.stringify(json)}`);
          return json;
        };
        const pkc = PublicKeyCredential as unknown as {
          parseCreationOptionsFromJSON(o: unknown): PublicKeyCredentialCreationOptions;
          parseRequestOptionsFromJSON(o: unknown): PublicKeyCredentialRequestOptions;
        };
        // What a client does with the provider's options: the RP-id placeholder becomes this page's hostname (spec §5).
        const reg = await post("/auth/passkey/initiate-passkey-registration", {}, accessToken);
        const creation = reg.options_json as Json;
        const created = (await navigator.credentials.create({
          publicKey: pkc.parseCreationOptionsFromJSON({
            ...creation,
            rp: { ...(creation.rp as Json), id: location.hostname },
          }),
        })) as PublicKeyCredential;
        const registered = await post(
          "/auth/passkey/register",
          { credential: created.toJSON(), code: reg.code },
          accessToken,
        );
        const auth = await post("/auth/passkey/initiate-passkey-authentication", {});
        const request = { ...(auth.options_json as Json), rpId: location.hostname };
        const assertion = (await navigator.credentials.get({
          publicKey: pkc.parseRequestOptionsFromJSON(request),
        })) as PublicKeyCredential;
        const signedIn = await post("/auth/passkey/sign-in", {
          authentication_response: assertion.toJSON(),
          code: auth.code,
        });
        return {
          userHandle: registered.user_handle,
          credentialId: created.id,
          signedInAs: signedIn.user_id,
          isNewUser: signedIn.is_new_user,
        };
      },
      { headers, accessToken },
    );
    expect(result).toEqual({
      userHandle: result.credentialId,
      credentialId: expect.any(String),
      signedInAs: userId,
      isNewUser: false,
    });
    // The browser's authenticator holds the one resident credential, and signed with it once.
    const { credentials } = await cdp.send("WebAuthn.getCredentials", { authenticatorId });
    expect(credentials).toHaveLength(1);
    expect(credentials[0]!.isResidentCredential).toBe(true);
    expect(Buffer.from(credentials[0]!.credentialId, "base64").toString("base64url")).toBe(result.credentialId);
    expect(credentials[0]!.signCount).toBeGreaterThanOrEqual(1);
  }, 60_000);
});

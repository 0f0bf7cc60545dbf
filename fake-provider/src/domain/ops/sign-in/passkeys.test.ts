import { describe, expect, it } from "vitest";
import type {
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
} from "@simplewebauthn/server";
import { seededRandom } from "@authsim/sdk/runtime";
import { VirtualAuthenticator } from "../../webauthn/virtual-authenticator.ts";
import {
  api,
  client,
  expectJson,
  expectKnownError,
  newProvider,
  providerWithDevConfig,
  signUp,
  type SignedUp,
  type TestProvider,
} from "../../../test-support/api.ts";
import { enableTotp, withToken } from "../../../test-support/strong-auth.ts";

/** Passkeys with real WebAuthn verification (protocol.md §7.6; spec §5, §8 "Passkey"). */

const ORIGIN = "http://localhost:3000";
const PLACEHOLDER = "THIS_VALUE_WILL_BE_REPLACED.example.com";

interface Initiated<T> {
  options_json: T;
  code: string;
}

/** What a browser client does: replace the RP-id placeholder with its hostname, then run the ceremony. */
async function register(
  provider: TestProvider,
  user: SignedUp,
  authenticator: VirtualAuthenticator,
): Promise<Response> {
  const init = await expectJson<Initiated<PublicKeyCredentialCreationOptionsJSON>>(
    await api(provider, "/auth/passkey/initiate-passkey-registration", {
      headers: withToken(user.access_token),
      json: {},
    }),
  );
  const credential = await authenticator.register({
    ...init.options_json,
    rp: { ...init.options_json.rp, id: new URL(authenticator.origin).hostname },
  });
  return api(provider, "/auth/passkey/register", {
    headers: withToken(user.access_token),
    json: { credential, code: init.code },
  });
}

async function assertion(provider: TestProvider, authenticator: VirtualAuthenticator) {
  const init = await expectJson<Initiated<PublicKeyCredentialRequestOptionsJSON>>(
    await api(provider, "/auth/passkey/initiate-passkey-authentication", { headers: client(), json: {} }),
  );
  return {
    authentication_response: await authenticator.authenticate({
      ...init.options_json,
      rpId: new URL(authenticator.origin).hostname,
    }),
    code: init.code,
  };
}

const signIn = (provider: TestProvider, body: unknown) =>
  api(provider, "/auth/passkey/sign-in", { headers: client(), json: body });

describe("passkeys", () => {
  it("offers the RP-id placeholder, the user handle (1–64 bytes) and a challenge", async () => {
    const provider = newProvider();
    const user = await signUp(provider);
    const init = await expectJson<Initiated<PublicKeyCredentialCreationOptionsJSON>>(
      await api(provider, "/auth/passkey/initiate-passkey-registration", {
        headers: withToken(user.access_token),
        json: {},
      }),
    );
    expect(init.options_json.rp).toEqual({ id: PLACEHOLDER, name: "authsim dev project" });
    expect(new TextDecoder().decode(Buffer.from(init.options_json.user.id, "base64url"))).toBe(user.user_id);
    expect(init.options_json.challenge).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const auth = await expectJson<Initiated<PublicKeyCredentialRequestOptionsJSON>>(
      await api(provider, "/auth/passkey/initiate-passkey-authentication", { headers: client(), json: {} }),
    );
    expect(auth.options_json.rpId).toBe(PLACEHOLDER);
  });

  it("answers options as upstream: no empty hints, an empty allowCredentials; the fixed challenge MOCK when asked", async () => {
    const provider = newProvider({ hardcodedPasskeyChallenge: true });
    const user = await signUp(provider);
    const reg = await expectJson<Initiated<Record<string, unknown>>>(
      await api(provider, "/auth/passkey/initiate-passkey-registration", {
        headers: withToken(user.access_token),
        json: {},
      }),
    );
    expect(reg.options_json).not.toHaveProperty("hints");
    expect(reg.options_json.challenge).toBe("TU9DSw");
    const auth = await expectJson<Initiated<Record<string, unknown>>>(
      await api(provider, "/auth/passkey/initiate-passkey-authentication", { headers: client(), json: {} }),
    );
    expect(auth.options_json).toMatchObject({ challenge: "TU9DSw", allowCredentials: [] });
    expect(auth.options_json).not.toHaveProperty("hints");
  });

  it("registers with a real attestation and signs in with a real assertion", async () => {
    const provider = newProvider();
    const user = await signUp(provider);
    const authenticator = new VirtualAuthenticator({ origin: ORIGIN, random: seededRandom("passkeys") });
    const registered = await expectJson<{ user_handle: string }>(await register(provider, user, authenticator));
    expect(registered.user_handle).toBe(authenticator.list()[0]!.id);
    expect(await expectJson(await api(provider, "/users/me", { headers: withToken(user.access_token) }))).toMatchObject(
      { passkey_auth_enabled: true },
    );
    const tokens = await expectJson(await signIn(provider, await assertion(provider, authenticator)));
    expect(tokens).toMatchObject({ user_id: user.user_id, is_new_user: false });
    // The signature counter moves on; a replayed assertion fails with the spent code.
    const again = await assertion(provider, authenticator);
    await expectJson(await signIn(provider, again));
    await expectKnownError(await signIn(provider, again), "VERIFICATION_CODE_ALREADY_USED", 409);
  });

  it("refuses a tampered signature, an unknown credential and an untrusted origin with PASSKEY_AUTHENTICATION_FAILED", async () => {
    const provider = newProvider();
    const user = await signUp(provider);
    const authenticator = new VirtualAuthenticator({ origin: ORIGIN });
    await expectJson(await register(provider, user, authenticator));
    const good = await assertion(provider, authenticator);
    const signed = good.authentication_response;
    const sig = Buffer.from(signed.response.signature, "base64url");
    sig[sig.length - 1] = sig[sig.length - 1]! ^ 0xff;
    const tampered = {
      ...good,
      authentication_response: { ...signed, response: { ...signed.response, signature: sig.toString("base64url") } },
    };
    await expectKnownError(await signIn(provider, tampered), "PASSKEY_AUTHENTICATION_FAILED", 400);

    const stranger = new VirtualAuthenticator({ origin: ORIGIN });
    await stranger.register({
      challenge: "AAAA",
      rp: { id: "localhost", name: "x" },
      user: { id: "dXNlcg", name: "u", displayName: "u" },
      pubKeyCredParams: [{ type: "public-key", alg: -7 }],
    });
    const body = await expectKnownError(
      await signIn(provider, await assertion(provider, stranger)),
      "PASSKEY_AUTHENTICATION_FAILED",
      400,
    );
    expect(body.error).toBe("Passkey not found");

    const evil = new VirtualAuthenticator({ origin: "https://evil.example.net" });
    const evilUser = await signUp(provider);
    await expectKnownError(await register(provider, evilUser, evil), "PASSKEY_REGISTRATION_FAILED", 400);
  });

  it("refuses localhost origins when the project does not allow localhost", async () => {
    const provider = providerWithDevConfig({ allow_localhost: false });
    const user = await signUp(provider);
    const body = await expectKnownError(
      await register(provider, user, new VirtualAuthenticator({ origin: ORIGIN })),
      "PASSKEY_REGISTRATION_FAILED",
      400,
    );
    expect(body.error).toBe("Passkey registration failed because the origin is not allowed");
  });

  it("answers PASSKEY_AUTHENTICATION_NOT_ENABLED when passkeys are off, and needs a user to register", async () => {
    const provider = providerWithDevConfig({ passkey_enabled: false });
    const user = await signUp(provider);
    await expectKnownError(
      await api(provider, "/auth/passkey/initiate-passkey-registration", {
        headers: withToken(user.access_token),
        json: {},
      }),
      "PASSKEY_AUTHENTICATION_NOT_ENABLED",
      400,
    );
    await expectKnownError(
      await api(provider, "/auth/passkey/initiate-passkey-authentication", { headers: client(), json: {} }),
      "PASSKEY_AUTHENTICATION_NOT_ENABLED",
      400,
    );
    await expectKnownError(
      await api(newProvider(), "/auth/passkey/initiate-passkey-registration", { headers: client(), json: {} }),
      "USER_AUTHENTICATION_REQUIRED",
      401,
    );
  });

  it("refuses a registration code of another user, and asks for MFA after a passkey sign-in", async () => {
    const provider = newProvider();
    const a = await signUp(provider);
    const b = await signUp(provider);
    const authenticator = new VirtualAuthenticator({ origin: ORIGIN });
    const init = await expectJson<Initiated<PublicKeyCredentialCreationOptionsJSON>>(
      await api(provider, "/auth/passkey/initiate-passkey-registration", {
        headers: withToken(a.access_token),
        json: {},
      }),
    );
    const credential = await authenticator.register({
      ...init.options_json,
      rp: { ...init.options_json.rp, id: "localhost" },
    });
    await expectKnownError(
      await api(provider, "/auth/passkey/register", {
        headers: withToken(b.access_token),
        json: { credential, code: init.code },
      }),
      "VERIFICATION_CODE_NOT_FOUND",
      404,
    );
    await expectJson(
      await api(provider, "/auth/passkey/register", {
        headers: withToken(a.access_token),
        json: { credential, code: init.code },
      }),
    );
    await enableTotp(provider, a.access_token);
    const body = await expectKnownError(
      await signIn(provider, await assertion(provider, authenticator)),
      "MULTI_FACTOR_AUTHENTICATION_REQUIRED",
      400,
    );
    expect(body.details?.attempt_code).toEqual(expect.any(String));
  });
});

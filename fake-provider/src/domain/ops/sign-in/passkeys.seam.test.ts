import { describe, expect, it } from "vitest";
import { PASSKEY_RP_ID_PLACEHOLDER } from "@authsim/sdk/contract";
import { seededRandom } from "@authsim/sdk/runtime";
import { devSeedWith, opSeam, type OpSeam } from "../../../test-support/op-seam.ts";
import type { UserRecord } from "../../store/records.ts";
import { VirtualAuthenticator } from "../../webauthn/virtual-authenticator.ts";
import { initiateAuthentication, initiateRegistration, passkeySignIn, registerPasskey } from "./passkeys.ts";

/**
 * Passkeys (protocol.md §7.6; spec §5, §8), at the ops' seam: both ceremonies with a virtual authenticator, which signs
 * for real, so the op verifies as it does for a browser.
 */

const ORIGIN = "http://localhost:3000";
const authenticatorAt = (origin = ORIGIN, seed = "seam") =>
  new VirtualAuthenticator({ origin, random: seededRandom(seed) });

/** The client's part: the RP-id placeholder replaced by its hostname, then the authenticator's attestation. */
async function attest(seam: OpSeam, user: UserRecord, authenticator: VirtualAuthenticator) {
  const init = await seam.ok((ctx) => initiateRegistration(ctx, seam.project(), user));
  const credential = await authenticator.register({
    ...init.options_json,
    rp: { ...init.options_json.rp, id: new URL(authenticator.origin).hostname },
  });
  return { credential, code: init.code };
}

async function assertWith(seam: OpSeam, authenticator: VirtualAuthenticator) {
  const init = await seam.ok((ctx) => initiateAuthentication(ctx, seam.project()));
  return {
    authentication_response: await authenticator.authenticate({
      ...init.options_json,
      rpId: new URL(authenticator.origin).hostname,
    }),
    code: init.code,
  };
}

async function registered(seam: OpSeam) {
  const user = await seam.addUser({ primary_email: "pk@example.com" });
  const authenticator = authenticatorAt();
  const body = await attest(seam, user, authenticator);
  await seam.ok((ctx) => registerPasskey(ctx, seam.project(), ctx.tables.users.get(user.id)!, body));
  return { user, authenticator };
}

describe("registration", () => {
  it("offers the RP-id placeholder and the user id as handle; registering stores the key and enables passkey sign-in", async () => {
    const seam = opSeam();
    const user = await seam.addUser();
    const init = await seam.ok((ctx) => initiateRegistration(ctx, seam.project(), user));
    expect(init.options_json.rp.id).toBe(PASSKEY_RP_ID_PLACEHOLDER);
    expect(Buffer.from(init.options_json.user.id, "base64url").toString()).toBe(user.id);
    const authenticator = authenticatorAt();
    const credential = await authenticator.register({
      ...init.options_json,
      rp: { ...init.options_json.rp, id: "localhost" },
    });
    const out = await seam.ok((ctx) => registerPasskey(ctx, seam.project(), user, { credential, code: init.code }));
    expect(out.user_handle).toBe(authenticator.list()[0]!.id);
    expect(seam.tables.passkeys.get(out.user_handle)).toMatchObject({
      userId: user.id,
      projectId: user.projectId,
      counter: 0,
    });
    expect(seam.tables.users.get(user.id)?.passkeyAuthEnabled).toBe(true);
  });

  it("keeps one passkey per user: a new registration replaces the old one", async () => {
    const seam = opSeam();
    const { user, authenticator } = await registered(seam);
    const second = authenticatorAt(ORIGIN, "second");
    const body = await attest(seam, user, second);
    await seam.ok((ctx) => registerPasskey(ctx, seam.project(), ctx.tables.users.get(user.id)!, body));
    expect([...seam.tables.passkeys.values()].map((p) => p.credentialId)).toEqual([second.list()[0]!.id]);
    expect(seam.tables.passkeys.has(authenticator.list()[0]!.id)).toBe(false);
  });

  it("refuses another user's code (VERIFICATION_CODE_NOT_FOUND), an untrusted origin and a spent code", async () => {
    const seam = opSeam();
    const [a, b] = [await seam.addUser(), await seam.addUser()];
    const body = await attest(seam, a, authenticatorAt());
    await seam.refuses((ctx) => registerPasskey(ctx, seam.project(), b, body), "VERIFICATION_CODE_NOT_FOUND");
    const evil = await attest(seam, b, authenticatorAt("https://evil.example.net"));
    expect(
      (
        await seam.refusesSpendingCode(
          (ctx) => registerPasskey(ctx, seam.project(), b, evil),
          "PASSKEY_REGISTRATION_FAILED",
        )
      ).message,
    ).toBe("Passkey registration failed because the origin is not allowed");
    await seam.ok((ctx) => registerPasskey(ctx, seam.project(), a, body));
    await seam.refuses(
      (ctx) => registerPasskey(ctx, seam.project(), ctx.tables.users.get(a.id)!, body),
      "VERIFICATION_CODE_ALREADY_USED",
    );
  });

  it("refuses a localhost origin where the project does not allow localhost", async () => {
    const seam = opSeam({ seed: devSeedWith({ allow_localhost: false }) });
    const user = await seam.addUser();
    const body = await attest(seam, user, authenticatorAt());
    await seam.refusesSpendingCode(
      (ctx) => registerPasskey(ctx, seam.project(), user, body),
      "PASSKEY_REGISTRATION_FAILED",
    );
  });
});

describe("sign-in", () => {
  it("signs the passkey's user in and moves its signature counter on", async () => {
    const seam = opSeam();
    const { user, authenticator } = await registered(seam);
    const assertion = await assertWith(seam, authenticator);
    const out = await seam.ok((ctx) => passkeySignIn(ctx, seam.project(), assertion));
    expect(out).toMatchObject({ user_id: user.id, is_new_user: false });
    expect(seam.tables.sessions.lookup("refreshToken", out.refresh_token)).toMatchObject({ userId: user.id });
    expect(seam.tables.passkeys.get(authenticator.list()[0]!.id)?.counter).toBe(authenticator.list()[0]!.signCount);
  });

  it("refuses a replayed assertion (its code is spent), a tampered signature and a credential the project does not know, spending their codes as the real handler does", async () => {
    const seam = opSeam();
    const { authenticator } = await registered(seam);
    const used = await assertWith(seam, authenticator);
    await seam.ok((ctx) => passkeySignIn(ctx, seam.project(), used));
    await seam.refuses((ctx) => passkeySignIn(ctx, seam.project(), used), "VERIFICATION_CODE_ALREADY_USED");

    const good = await assertWith(seam, authenticator);
    const signature = Buffer.from(good.authentication_response.response.signature, "base64url");
    signature[signature.length - 1] = signature[signature.length - 1]! ^ 0xff;
    const tampered = {
      ...good,
      authentication_response: {
        ...good.authentication_response,
        response: { ...good.authentication_response.response, signature: signature.toString("base64url") },
      },
    };
    await seam.refusesSpendingCode(
      (ctx) => passkeySignIn(ctx, seam.project(), tampered),
      "PASSKEY_AUTHENTICATION_FAILED",
    );

    const stranger = authenticatorAt(ORIGIN, "stranger");
    await stranger.register({
      challenge: "AAAA",
      rp: { id: "localhost", name: "x" },
      user: { id: "dXNlcg", name: "u", displayName: "u" },
      pubKeyCredParams: [{ type: "public-key", alg: -7 }],
    });
    const unknown = await assertWith(seam, stranger);
    expect(
      (
        await seam.refusesSpendingCode(
          (ctx) => passkeySignIn(ctx, seam.project(), unknown),
          "PASSKEY_AUTHENTICATION_FAILED",
        )
      ).message,
    ).toBe("Passkey not found");
  });
});

describe("a project with passkeys off", () => {
  it("refuses both ceremonies with PASSKEY_AUTHENTICATION_NOT_ENABLED", async () => {
    const seam = opSeam({ seed: devSeedWith({ passkey_enabled: false }) });
    const user = await seam.addUser();
    await seam.refuses((ctx) => initiateRegistration(ctx, seam.project(), user), "PASSKEY_AUTHENTICATION_NOT_ENABLED");
    await seam.refuses((ctx) => initiateAuthentication(ctx, seam.project()), "PASSKEY_AUTHENTICATION_NOT_ENABLED");
  });

  it("checks a finishing ceremony's attempt code before whether passkeys are on, as the real handlers", async () => {
    const seam = opSeam({ seed: devSeedWith({ passkey_enabled: false }) });
    const user = await seam.addUser();
    const code = "0".repeat(45);
    await seam.refuses(
      (ctx) => registerPasskey(ctx, seam.project(), user, { credential: {}, code }),
      "VERIFICATION_CODE_NOT_FOUND",
    );
    await seam.refuses(
      (ctx) => passkeySignIn(ctx, seam.project(), { authentication_response: {}, code }),
      "VERIFICATION_CODE_NOT_FOUND",
    );
  });
});

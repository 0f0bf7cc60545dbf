import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { headerNames } from "@authsim/sdk/contract";
import { inProcessTarget, type Target } from "../targets.ts";
import { CALLBACKS } from "../suites/account-support.ts";
import { serverApp, uniqueTag } from "../suites/support.ts";

/**
 * "No flow reveals whether an email exists" (issue 4; protocol.md §6.2, §7.2), where the real service hides it:
 * send-reset-code answers the very same status and body for any address, and OTP send answers the same status and
 * the same body shape (a fresh 39-character nonce) for an existing user's verified sign-in address and for an unknown
 * one. (The service does reveal an address used for sign-in but not yet verified, with USER_EMAIL_ALREADY_EXISTS on
 * OTP send; that case is outside this property, as it is outside the service's promise.)
 */
/** Valid local parts (a malformed address is a SCHEMA_ERROR whoever has it). */
const localParts = fc.stringMatching(/^[a-z][a-z0-9_-]{0,20}$/);

async function post(target: Target, path: string, body: unknown) {
  const response = await target.fetch(`${target.baseUrl}/api/v1${path}`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      [headerNames.accessType]: "client",
      [headerNames.projectId]: target.projectId,
    },
    body: JSON.stringify(body),
  });
  return { status: response.status, text: await response.text() };
}

/** What an answer may reveal: its status, and its body with the nonce's value (random by design) masked. */
function shape(answer: { status: number; text: string }) {
  const body = JSON.parse(answer.text) as Record<string, unknown>;
  const masked = Object.fromEntries(
    Object.entries(body).map(([k, v]) => [k, k === "nonce" && typeof v === "string" ? `<${v.length} chars>` : v]),
  );
  return { status: answer.status, body: masked };
}

describe("property: no flow reveals whether an email exists", () => {
  it("send-reset-code and OTP send answer alike for existing and unknown addresses", async () => {
    const target = inProcessTarget();
    const server = serverApp(target);
    await fc.assert(
      fc.asyncProperty(localParts, fc.boolean(), async (local, exists) => {
        const email = `${local}.${uniqueTag("enum")}@example.com`;
        const unknown = `${local}.${uniqueTag("unknown")}@example.com`;
        if (exists)
          await server.createUser({
            primaryEmail: email,
            primaryEmailVerified: true,
            primaryEmailAuthEnabled: true,
            password: "password-123",
          });

        const reset = await post(target, "/auth/password/send-reset-code", {
          email,
          callback_url: CALLBACKS.passwordReset,
        });
        const resetUnknown = await post(target, "/auth/password/send-reset-code", {
          email: unknown,
          callback_url: CALLBACKS.passwordReset,
        });
        expect(reset).toEqual(resetUnknown);
        expect(reset.status).toBe(200);

        const otp = await post(target, "/auth/otp/send-sign-in-code", { email, callback_url: CALLBACKS.magicLink });
        const otpUnknown = await post(target, "/auth/otp/send-sign-in-code", {
          email: unknown,
          callback_url: CALLBACKS.magicLink,
        });
        expect(shape(otp)).toEqual(shape(otpUnknown));
        expect(shape(otp)).toEqual({ status: 200, body: { nonce: "<39 chars>" } });
      }),
      { numRuns: 40 },
    );
  });
});

import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { passIdentityProvider } from "../suites/strong-auth-support.ts";
import { uniqueTag } from "../suites/support.ts";
import { inProcessTarget } from "../targets.ts";

/**
 * Property (issue 5): a PKCE verifier is accepted at the code exchange exactly when its S256 digest is the challenge
 * the flow started with (RFC 7636 §4.6) — for arbitrary verifiers of the RFC's alphabet and length.
 */

const target = inProcessTarget();
const APP_CALLBACK = "http://localhost:3000/handler/oauth-callback";
const verifier = fc.stringMatching(/^[A-Za-z0-9\-._~]{43,128}$/);
const challengeOf = (v: string) => createHash("sha256").update(v).digest("base64url");

async function codeFor(challenge: string): Promise<string> {
  const query = new URLSearchParams({
    client_id: target.projectId,
    client_secret: target.publishableClientKey,
    redirect_uri: APP_CALLBACK,
    scope: "legacy",
    state: "s",
    grant_type: "authorization_code",
    code_challenge: challenge,
    code_challenge_method: "S256",
    response_type: "code",
    stack_response_mode: "json",
  });
  const response = await target.fetch(`${target.baseUrl}/api/v1/auth/oauth/authorize/github?${query.toString()}`);
  const { location } = (await response.json()) as { location: string };
  return new URL(await passIdentityProvider(target, location, { account_id: uniqueTag("pkce") })).searchParams.get(
    "code",
  )!;
}

async function exchange(code: string, codeVerifier: string): Promise<number> {
  const form = new URLSearchParams({
    grant_type: "authorization_code",
    client_id: target.projectId,
    client_secret: target.publishableClientKey,
    code,
    redirect_uri: APP_CALLBACK,
    code_verifier: codeVerifier,
  });
  const response = await target.fetch(`${target.baseUrl}/api/v1/auth/oauth/token`, {
    method: "POST",
    body: form.toString(),
    headers: { "content-type": "application/x-www-form-urlencoded" },
  });
  await response.text();
  return response.status;
}

describe("PKCE pairs", () => {
  it("accepts a verifier only when it matches the challenge", async () => {
    await fc.assert(
      fc.asyncProperty(verifier, verifier, fc.boolean(), async (original, other, presentOriginal) => {
        const presented = presentOriginal ? original : other;
        const status = await exchange(await codeFor(challengeOf(original)), presented);
        expect(status).toBe(challengeOf(presented) === challengeOf(original) ? 200 : 400);
      }),
      { numRuns: 40, seed: 20260101 },
    );
  });
});

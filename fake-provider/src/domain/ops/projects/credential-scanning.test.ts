import { describe, expect, it } from "vitest";
import type { ApiKeyFirstViewJson } from "@authsim/sdk/contract";
import {
  api,
  eachTestSignedUp,
  expectJson,
  expectKnownError,
  admin,
  server,
  signUp,
  START_MILLIS,
  type SignedUp,
  type TestProvider,
} from "../../../test-support/api.ts";
import { as, seedTeam } from "../../../test-support/account.ts";
import { TRANSACTIONAL } from "../emails/email-outbox.ts";

/** POST /integrations/credential-scanning/revoke: a leaked key revoked by its secret, its owners told by email. */

let provider: TestProvider;
let user: SignedUp;
eachTestSignedUp((p, u) => ((provider = p), (user = u)));

const revoke = (api_key: unknown) => api(provider, "/integrations/credential-scanning/revoke", { json: { api_key } });
const userKey = async (fields: Record<string, unknown> = {}) =>
  expectJson<ApiKeyFirstViewJson>(
    await api(provider, "/user-api-keys", {
      headers: as(user),
      json: { user_id: "me", description: "leaky", expires_at_millis: null, ...fields },
    }),
  );
const revokedEmails = () => provider.outbox.list().filter((email) => email.subject.startsWith("API Key Revoked: "));

describe("credential-scanning revoke", () => {
  it("revokes a user key named by its secret, without authentication, and tells its user once", async () => {
    const key = await userKey();
    expect(await expectJson(await revoke(key.value))).toEqual({ success: true });
    const read = await expectJson<{ manually_revoked_at_millis?: number }>(
      await api(provider, `/user-api-keys/${key.id}?user_id=me`, { headers: as(user) }),
    );
    expect(read.manually_revoked_at_millis).toBe(START_MILLIS);
    expect(revokedEmails().map((email) => [email.to, email.subject])).toEqual([
      [[user.email], "API Key Revoked: leaky"],
    ]);
    // A second report finds it revoked already: success, and nobody is told again.
    expect(await expectJson(await revoke(key.value))).toEqual({ success: true });
    expect(revokedEmails()).toHaveLength(1);
  });

  it("tells the members of a team key's team who may manage its keys", async () => {
    const other = await signUp(provider);
    const teamId = await seedTeam(provider, [user.user_id, other.user_id]);
    await expectJson(
      await api(provider, `/team-permissions/${teamId}/${user.user_id}/$manage_api_keys`, {
        headers: server(),
        method: "POST",
        json: {},
      }),
      201,
    );
    const key = await expectJson<ApiKeyFirstViewJson>(
      await api(provider, "/team-api-keys", {
        headers: as(user),
        json: { team_id: teamId, description: "deploys", expires_at_millis: null },
      }),
    );
    await expectJson(await revoke(key.value));
    expect(revokedEmails().map((email) => email.to)).toEqual([[user.email]]);
  });

  it("sends it as upstream's queue sends an email: its HTML as a themeless template, its text made from the rendering, one high-priority Transactional entry per address", async () => {
    const key = await userKey({ description: "Key <HTML & co>" });
    await expectJson(await revoke(key.value));
    const [email] = revokedEmails();
    // The subject is the description as given (upstream does not escape it); the document is what the queue renders
    // for a template without a theme, and the text is its plain-text rendering, not a separate string.
    expect(email!.subject).toBe("API Key Revoked: Key <HTML & co>");
    expect(email!.html.startsWith("<!DOCTYPE html")).toBe(true);
    expect(email!.html).toContain("Key &lt;HTML &amp; co&gt;");
    expect(email!.text).toContain("Key <HTML & co>");
    expect(email!.text).not.toMatch(/<\/?[a-z]+[^>]*>/);
    const outbox = await expectJson<{ items: Record<string, unknown>[] }>(
      await api(provider, "/emails/outbox", { headers: admin() }),
    );
    const entry = outbox.items.find((item) => item.subject === email!.subject)!;
    expect(entry).toMatchObject({
      theme_id: null,
      to: { type: "custom-emails", emails: [user.email] },
      variables: {},
      created_with: "programmatic-call",
      email_programmatic_call_template_id: null,
      skip_deliverability_check: false,
      is_high_priority: true,
      is_transactional: true,
      notification_category_id: TRANSACTIONAL.id,
      status: "sent",
    });
    expect(entry.tsx_source).toContain("dangerouslySetInnerHTML");
  });

  it("refuses an unknown secret, a public key and an expired key, and changes nothing", async () => {
    await expectKnownError(await revoke("sk_not_a_key"), "API_KEY_NOT_FOUND", 404);
    const publicKey = await userKey({ is_public: true });
    await expectKnownError(await revoke(publicKey.value), "PUBLIC_API_KEY_CANNOT_BE_REVOKED", 400);
    const expiring = await userKey({ expires_at_millis: START_MILLIS + 1_000 });
    provider.clock.advance(2_000);
    await expectKnownError(await revoke(expiring.value), "API_KEY_EXPIRED", 401);
    expect(revokedEmails()).toEqual([]);
    expect([...provider.store.read.projectApiKeys.values()].every((k) => k.manuallyRevokedAtMillis === null)).toBe(
      true,
    );
  });

  it("refuses a malformed body with SCHEMA_ERROR", async () => {
    await expectKnownError(await revoke(42), "SCHEMA_ERROR", 400);
    await expectKnownError(
      await api(provider, "/integrations/credential-scanning/revoke", { json: {} }),
      "SCHEMA_ERROR",
      400,
    );
    await expectKnownError(
      await api(provider, "/integrations/credential-scanning/revoke", { json: { api_key: "x", extra: 1 } }),
      "SCHEMA_ERROR",
      400,
    );
  });
});

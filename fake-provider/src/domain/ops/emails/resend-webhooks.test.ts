import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { admin, api, expectJson, expectKnownError, newProvider, type TestProvider } from "../../../test-support/api.ts";
import { DEV_RESEND_WEBHOOK_SECRET, svixSignature } from "./resend-webhooks.ts";

/** POST /integrations/resend/webhooks: Svix-signed domain events from the email provider move a managed domain's status. */

let provider: TestProvider;
beforeEach(() => {
  provider = newProvider();
});
afterEach(() => expect(provider.unexpected).toEqual([]));

const WEBHOOK = "/integrations/resend/webhooks";

async function send(
  event: unknown,
  options: { secret?: string; ageSeconds?: number; raw?: string; contentType?: string } = {},
) {
  const body = options.raw ?? JSON.stringify(event);
  const timestamp = String(Math.floor(provider.clock.now() / 1000) - (options.ageSeconds ?? 0));
  const signature = await svixSignature(options.secret ?? DEV_RESEND_WEBHOOK_SECRET, "msg_1", timestamp, body);
  return api(provider, WEBHOOK, {
    body,
    contentType: options.contentType ?? "application/json",
    raw: { "svix-id": "msg_1", "svix-timestamp": timestamp, "svix-signature": `v1,bm9wZQ== ${signature}` },
  });
}

async function pendingDomain(): Promise<string> {
  const domain = await expectJson<{ domain_id: string }>(
    await api(provider, "/internal/emails/managed-onboarding/setup", {
      headers: admin(),
      json: { subdomain: "mail.example.com", sender_local_part: "noreply" },
    }),
  );
  return domain.domain_id;
}

const statusOf = async (domainId: string) =>
  (
    await expectJson<{ items: { domain_id: string; status: string }[] }>(
      await api(provider, "/internal/emails/managed-onboarding/list", { headers: admin() }),
    )
  ).items.find((d) => d.domain_id === domainId)?.status;

describe("the Resend webhook", () => {
  it("moves a domain to failed, holds it pending, then verifies it, as the provider reports", async () => {
    const id = await pendingDomain();
    expect(
      await expectJson(await send({ type: "domain.updated", data: { id, status: "temporary_failure", error: "dns" } })),
    ).toEqual({ received: true });
    expect(await statusOf(id)).toBe("failed");
    await expectJson(await send({ type: "domain.updated", data: { id, status: "pending" } }));
    provider.clock.advance(60_000);
    expect(await statusOf(id)).toBe("pending_verification");
    await expectJson(await send({ type: "domain.updated", data: { id, status: "Verified" } }));
    expect(await statusOf(id)).toBe("verified");
  });

  it("acknowledges other events and unknown domains without changing anything", async () => {
    const id = await pendingDomain();
    expect(await expectJson(await send({ type: "email.sent", data: { id, status: "failed" } }))).toEqual({
      received: true,
    });
    expect(await expectJson(await send({ type: "domain.updated", data: { id: "other", status: "failed" } }))).toEqual({
      received: true,
    });
    expect(await statusOf(id)).toBe("pending_verification");
  });

  it("refuses a wrong secret, a stale signature, a non-JSON body and a domain event without its fields with plain 400s", async () => {
    const id = await pendingDomain();
    const answers = [
      await send({ type: "domain.updated", data: { id, status: "failed" } }, { secret: "whsec_b3RoZXI=" }),
      await send({ type: "domain.updated", data: { id, status: "failed" } }, { ageSeconds: 600 }),
      // Sent as JSON, such a body is the parser's BODY_PARSING_ERROR first (below).
      await send(null, { raw: "not json", contentType: "text/plain" }),
      await send({ type: "domain.updated", data: { id } }),
    ];
    expect(await Promise.all(answers.map(async (r) => [r.status, await r.text()]))).toEqual([
      [400, "Invalid Resend webhook signature"],
      [400, "Invalid Resend webhook signature"],
      [400, "Invalid JSON payload in Resend webhook"],
      [400, "Resend webhook payload missing required domain fields"],
    ]);
    expect(await statusOf(id)).toBe("pending_verification");
    await expectKnownError(await send(null, { raw: "not json" }), "BODY_PARSING_ERROR", 400);
  });

  it("names each missing Svix header in one SCHEMA_ERROR", async () => {
    const body = await expectKnownError(
      await api(provider, WEBHOOK, { json: {}, raw: { "svix-id": "msg_1" } }),
      "SCHEMA_ERROR",
      400,
    );
    expect(body.error).toContain("headers.svix-timestamp must be defined\n  - headers.svix-signature must be defined");
  });
});

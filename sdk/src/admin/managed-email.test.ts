import { describe, expect, it } from "vitest";
import { manualClock } from "../runtime/clock.ts";
import { fakeFetch, json, recordingSleep, type Responder } from "../test-support/fake-fetch.ts";
import { router } from "../test-support/router.ts";
import { StackAdminApp } from "./admin-app.ts";

/** The admin's managed email onboarding and onboarding preview calls (sdk-surface.md §8): the wire each sends and how its answer maps. */

function setup(responder: Responder) {
  const ff = fakeFetch(responder);
  const app = new StackAdminApp({
    projectId: "p1",
    baseUrl: "http://api.test",
    superSecretAdminKey: "sak",
    fetch: ff.fetch,
    clock: manualClock(0),
    sleep: recordingSleep().sleep,
  });
  return { app, calls: ff.calls };
}

const bodyOf = (call: { body: string | undefined }): unknown => JSON.parse(call.body ?? "null");
const BASE = "/internal/emails/managed-onboarding";
const wireDomain = {
  domain_id: "dom_1",
  subdomain: "mail.example.com",
  sender_local_part: "noreply",
  name_server_records: ["ns1.example.net"],
  status: "pending_verification",
};
const domain = {
  domainId: "dom_1",
  subdomain: "mail.example.com",
  senderLocalPart: "noreply",
  nameServerRecords: ["ns1.example.net"],
  status: "pending_verification",
};

describe("managed email onboarding", () => {
  it("setup, check, list and apply send the snake_case bodies and map the answers to camelCase", async () => {
    const { app, calls } = setup(
      router({
        [`POST ${BASE}/setup`]: () => json(wireDomain),
        [`POST ${BASE}/check`]: () => json({ status: "verified" }),
        [`GET ${BASE}/list`]: () => json({ items: [{ ...wireDomain, status: "verified" }] }),
        [`POST ${BASE}/apply`]: () => json({ status: "applied" }),
      }),
    );
    expect(await app.setupManagedEmailProvider({ subdomain: "mail.example.com", senderLocalPart: "noreply" })).toEqual(
      domain,
    );
    expect(bodyOf(calls[0]!)).toEqual({ subdomain: "mail.example.com", sender_local_part: "noreply" });
    expect(
      await app.checkManagedEmailStatus({
        domainId: "dom_1",
        subdomain: "mail.example.com",
        senderLocalPart: "noreply",
      }),
    ).toEqual({ status: "verified" });
    expect(bodyOf(calls[1]!)).toEqual({
      domain_id: "dom_1",
      subdomain: "mail.example.com",
      sender_local_part: "noreply",
    });
    expect(await app.listManagedEmailDomains()).toEqual([{ ...domain, status: "verified" }]);
    expect(await app.applyManagedEmailProvider({ domainId: "dom_1" })).toEqual({ status: "applied" });
    expect(bodyOf(calls[3]!)).toEqual({ domain_id: "dom_1" });
    expect(calls.map((c) => c.headers["x-stack-access-type"])).toEqual(["admin", "admin", "admin", "admin"]);
  });

  it("deleteManagedEmailDomain sends the id as resend_domain_id", async () => {
    const { app, calls } = setup(router({ [`POST ${BASE}/delete`]: () => json({ status: "deleted" }) }));
    expect(await app.deleteManagedEmailDomain({ resendDomainId: "dom_1" })).toEqual({ status: "deleted" });
    expect(bodyOf(calls[0]!)).toEqual({ resend_domain_id: "dom_1" });
  });

  it("a plain-text refusal of the service comes back as an HttpError with its text", async () => {
    const { app } = setup(
      router({ [`POST ${BASE}/apply`]: () => new Response("Managed domain is not verified yet", { status: 409 }) }),
    );
    await expect(app.applyManagedEmailProvider({ domainId: "dom_1" })).rejects.toMatchObject({
      name: "HttpError",
      status: 409,
      bodyText: "Managed domain is not verified yet",
    });
  });
});

describe("previewAffectedUsersByOnboardingChange", () => {
  const answer = {
    affected_users: [
      {
        id: "u1",
        display_name: null,
        primary_email: "a@example.com",
        restricted_reason: { type: "email_not_verified" },
      },
    ],
    total_affected_count: 4,
  };

  it("POSTs the proposed settings with the limit in the query, and maps the users", async () => {
    const { app, calls } = setup(router({ "POST /internal/onboarding/preview-affected-users": () => json(answer) }));
    const out = await app.previewAffectedUsersByOnboardingChange({ requireEmailVerification: true }, 5);
    expect(out).toEqual({
      affectedUsers: [
        {
          id: "u1",
          displayName: null,
          primaryEmail: "a@example.com",
          restrictedReason: { type: "email_not_verified" },
        },
      ],
      totalAffectedCount: 4,
    });
    expect(new URL(calls[0]!.url).searchParams.get("limit")).toBe("5");
    expect(bodyOf(calls[0]!)).toEqual({ onboarding: { require_email_verification: true } });
  });

  it("sends no limit when none is given, leaving the service's default", async () => {
    const { app, calls } = setup(router({ "POST /internal/onboarding/preview-affected-users": () => json(answer) }));
    await app.previewAffectedUsersByOnboardingChange({});
    expect(new URL(calls[0]!.url).search).toBe("");
    expect(bodyOf(calls[0]!)).toEqual({ onboarding: {} });
  });
});

import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  DEV,
  admin,
  api,
  client,
  expectJson,
  expectKnownError,
  newProvider,
  server,
  signUp,
  type TestProvider,
} from "../../../test-support/api.ts";
import { VERIFICATION_DELAY_MILLIS } from "./managed-email.ts";

/** Managed email onboarding over the wire: access, the answers' shapes, plain-text refusals, and sending after apply. */

let provider: TestProvider;
beforeEach(() => {
  provider = newProvider();
});
afterEach(() => expect(provider.unexpected).toEqual([]));

const BASE = "/internal/emails/managed-onboarding";
const MAIL = { subdomain: "mail.example.com", sender_local_part: "noreply" };
const post = (path: string, json: unknown, headers = admin()) => api(provider, `${BASE}/${path}`, { headers, json });
const emailServer = async () =>
  (
    JSON.parse(
      (await expectJson<{ config_string: string }>(await api(provider, "/internal/config", { headers: admin() })))
        .config_string,
    ) as { emails: { server: Record<string, unknown> } }
  ).emails.server;

describe("managed email onboarding over HTTP", () => {
  it("is admin only: a client or server caller gets INSUFFICIENT_ACCESS_TYPE naming admin", async () => {
    for (const headers of [client(), server()]) {
      const error = await expectKnownError(await post("setup", MAIL, headers), "INSUFFICIENT_ACCESS_TYPE", 401);
      expect(error.details).toMatchObject({ allowed_access_types: ["admin"] });
    }
    await expectKnownError(await api(provider, `${BASE}/list`, { headers: client() }), "INSUFFICIENT_ACCESS_TYPE", 401);
  });

  it("setup, verification a second later, check, apply: the config switches to the managed provider", async () => {
    const domain = await expectJson<{ domain_id: string; status: string }>(await post("setup", MAIL));
    expect(domain.status).toBe("pending_verification");
    expect((await emailServer()).provider).not.toBe("managed");
    await expect(
      post("apply", { domain_id: domain.domain_id }).then(async (r) => [r.status, await r.text()]),
    ).resolves.toEqual([409, "Managed domain is not verified yet"]);

    provider.clock.advance(VERIFICATION_DELAY_MILLIS);
    const listed = await expectJson(await api(provider, `${BASE}/list`, { headers: admin() }));
    expect(listed).toEqual({
      items: [
        {
          domain_id: domain.domain_id,
          ...MAIL,
          status: "verified",
          name_server_records: ["ns1.dnsimple.com", "ns2.dnsimple.com"],
        },
      ],
    });
    expect(await expectJson(await post("check", { domain_id: domain.domain_id, ...MAIL }))).toEqual({
      status: "verified",
    });
    expect(await expectJson(await post("apply", { domain_id: domain.domain_id }))).toEqual({ status: "applied" });
    expect(await emailServer()).toMatchObject({
      isShared: false,
      provider: "managed",
      managedSubdomain: "mail.example.com",
      managedSenderLocalPart: "noreply",
      senderEmail: "noreply@mail.example.com",
      password: `managed_mock_key_${DEV.id}`,
    });
  });

  it("answers bad values and unknown domains with upstream's plain-text 4xx", async () => {
    const bad = await post("setup", { subdomain: "mail", sender_local_part: "noreply" });
    expect([bad.status, bad.headers.get("x-stack-known-error"), await bad.text()]).toEqual([
      400,
      null,
      "subdomain must be a fully-qualified domain name like mail.example.com",
    ]);
    const unknown = await post("check", { domain_id: "nope", ...MAIL });
    expect([unknown.status, await unknown.text()]).toEqual([
      404,
      "Managed domain setup not found for this project/branch",
    ]);
    // A missing field is the schema's refusal.
    await expectKnownError(await post("apply", {}), "SCHEMA_ERROR", 400);
  });

  it("custom emails sent after apply go to the outbox as before", async () => {
    const user = await signUp(provider);
    const { domain_id } = await expectJson<{ domain_id: string }>(await post("setup", MAIL));
    provider.clock.advance(VERIFICATION_DELAY_MILLIS);
    await expectJson(await post("apply", { domain_id }));
    await expectJson(
      await api(provider, "/emails/send-email", {
        headers: server(),
        json: { user_ids: [user.user_id], html: "<p>Managed</p>", subject: "Via managed" },
      }),
    );
    expect(provider.outbox.latest({ to: user.email, kind: "custom" })).toMatchObject({
      subject: "Via managed",
      userId: user.user_id,
    });
  });
});

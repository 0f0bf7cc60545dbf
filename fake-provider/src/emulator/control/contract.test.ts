import { describe, expect, it } from "vitest";
import { controlClient, ControlError, controlEndpoints, type ControlEndpointName } from "@authsim/sdk/emulator";
import { admin, api, client, DEV, newProvider, ORIGIN, server } from "../../test-support/api.ts";

/**
 * The control contract (@authsim/sdk/emulator) against the routes that serve it: every answer the client checks must
 * parse with the contract's schema, so a route that drifts from the contract fails here rather than in the dashboard.
 */
function setup() {
  const provider = newProvider();
  return { provider, control: controlClient({ baseUrl: ORIGIN, fetch: provider.fetch }) };
}

describe("the control contract", () => {
  it("describes each endpoint's answer: state, clock, projects, outbox, faults, request log, fixtures, fixed OTPs", async () => {
    const { provider, control } = setup();
    const visited = new Set<ControlEndpointName>();
    const call = (async (name: ControlEndpointName, ...input: unknown[]) => {
      visited.add(name);
      return (control.call as (n: ControlEndpointName, ...i: unknown[]) => Promise<unknown>)(name, ...input);
    }) as typeof control.call;

    const snapshot = await call("snapshot");
    expect(await call("restore", { body: snapshot })).toEqual({ success: true });
    expect(await call("reset")).toEqual({ success: true });
    const before = await call("clock");
    expect((await call("advanceClock", { body: { millis: 1_000 } })).now_millis).toBe(before.now_millis + 1_000);
    expect(await call("freezeClock", { body: {} })).toMatchObject({ frozen: true });
    expect(await call("unfreezeClock")).toMatchObject({ frozen: false });
    expect(await call("work")).toMatchObject({ frozen: false, items: [] });
    expect(await call("runDueWork")).toMatchObject({ items: [] });
    expect(await call("waitForIdleWork")).toMatchObject({ items: [] });

    const made = await call("createProject", { body: { display_name: "Contract" } });
    expect((await call("projects")).items.map((p) => p.id)).toContain(made.id);
    expect(
      (await call("updateProject", { params: { project_id: made.id }, body: { display_name: "Renamed" } }))
        .display_name,
    ).toBe("Renamed");
    expect((await call("clientConfig", { params: { project_id: made.id } })).project.display_name).toBe("Renamed");
    const catalogue = {
      payments: { items: { credits: { display_name: "Credits", customer_type: "user" as const } }, offers: {} },
    };
    expect(
      (await call("setPaymentsConfig", { params: { project_id: made.id }, body: catalogue })).payments.items,
    ).toHaveProperty("credits");
    expect((await call("paymentsConfig", { params: { project_id: made.id } })).payments.items).toHaveProperty(
      "credits",
    );
    // A setup intent of a dev-project user, once the project's payments are set up, confirmed with a card.
    await api(provider, "/internal/payments/setup", { method: "POST", headers: admin(), json: {} });
    const buyer = await api(provider, "/users", { headers: server(), json: {} }).then(
      (r) => r.json() as Promise<{ id: string }>,
    );
    const intent = await api(provider, `/payments/payment-method/user/${buyer.id}/setup-intent`, {
      method: "POST",
      headers: server(),
      json: {},
    });
    const { client_secret } = (await intent.json()) as { client_secret: string };
    expect(
      await call("confirmSetupIntent", {
        body: { client_secret, card: { number: "4242424242424242", exp_month: 12, exp_year: 2040 } },
      }),
    ).toMatchObject({
      status: "succeeded",
      customer_id: buyer.id,
      payment_method: { brand: "visa", last4: "4242", exp_month: 12, exp_year: 2040 },
    });

    const email = "contract@example.com";
    await api(provider, "/auth/otp/send-sign-in-code", {
      headers: client(),
      json: { email, callback_url: "http://localhost:3000/cb" },
    });
    const sent = await call("waitForEmail", { query: { to: email, timeoutMs: 1_000 } });
    expect(sent.to).toEqual([email]);
    expect(
      (await call("emails", { query: { projectId: DEV.id, afterSeq: sent.seq - 1 } })).items.map((e) => e.id),
    ).toEqual([sent.id]);
    expect((await call("queuedEmails", { query: { projectId: DEV.id } })).items).toEqual([]);
    expect(await call("clearEmails")).toEqual({ success: true });

    const rule = await call("addFault", { body: { path: "/users/me", action: { type: "status", status: 503 } } });
    expect((await call("faults")).items).toEqual([rule]);
    expect(await call("removeFault", { params: { id: rule.id } })).toEqual({ success: true });
    expect(await call("clearFaults")).toEqual({ success: true });

    const log = await call("requests", { query: { excludeDashboard: true, limit: 5 } });
    expect(log.items.at(-1)?.path).toBe("/api/v1/auth/otp/send-sign-in-code");
    expect(await call("counts", { query: { projectId: DEV.id } })).toMatchObject({ requests: log.items.length });
    expect(await call("clearRequests")).toEqual({ success: true });

    // Webhooks: an endpoint nothing listens on still records its (failed) attempts.
    const hook = await call("addWebhookEndpoint", { body: { projectId: DEV.id, url: "http://127.0.0.1:9/hook" } });
    expect((await call("webhookEndpoints", { query: { projectId: DEV.id } })).items.map((e) => e.id)).toEqual([
      hook.id,
    ]);
    await api(provider, "/users", { headers: server(), json: {} });
    const attempt = await call("waitForWebhookAttempt", {
      query: { endpointId: hook.id, eventType: "user.created", timeoutMs: 5_000 },
    });
    expect(attempt).toMatchObject({ status: "fail", statusCode: 0, projectId: DEV.id });
    expect((await call("webhookMessages", { query: { projectId: DEV.id } })).items[0]).toMatchObject({
      id: attempt.msgId,
      eventType: "user.created",
    });
    expect(
      await call("resendWebhook", { body: { projectId: DEV.id, msgId: attempt.msgId, endpointId: hook.id } }),
    ).toEqual({ success: true });
    await call("waitForIdleWork");
    expect((await call("webhookAttempts", { query: { msgId: attempt.msgId } })).items.map((a) => a.manual)).toEqual([
      false,
      true,
    ]);

    const fixture = await call("fixture", { query: { projectIds: [made.id] } });
    expect(await call("fixedOtp")).toEqual({ rules: [] });
    expect(await call("setFixedOtp", { body: { rules: [{ pattern: "*@example.com", code: "123456" }] } })).toEqual({
      rules: [{ pattern: "*@example.com", code: "123456" }],
    });
    expect(await call("addAiScript", { body: { replies: [{ type: "text", text: "scripted" }] } })).toEqual({
      replies: [{ type: "text", text: "scripted" }],
    });
    expect(await call("aiScript")).toEqual({ replies: [{ type: "text", text: "scripted" }] });
    expect(await call("clearAiScript")).toEqual({ success: true });
    expect((await call("openApi")).openapi).toMatch(/^3\./);
    await call("reset");
    expect(await call("loadFixture", { body: fixture })).toBeTypeOf("object");

    // Every endpoint an in-process provider serves was called above (totp needs a user with MFA: strong-auth tests).
    const inProcess = (Object.keys(controlEndpoints) as ControlEndpointName[]).filter(
      (n) => !("devServerOnly" in controlEndpoints[n]) && n !== "totp",
    );
    expect(inProcess.filter((n) => !visited.has(n))).toEqual([]);
    expect(provider.unexpected).toEqual([]);
  });

  it("throws the emulator's refusal as a ControlError: status, message and schema problems", async () => {
    const { control } = setup();
    const refused = await control.call("advanceClock", { body: { millis: -1 } }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ControlError);
    expect(refused).toMatchObject({ status: 400, endpoint: "advanceClock" });
    expect((refused as ControlError).reason).toMatch(/^Invalid body: millis: /);
    await expect(control.call("totp", { params: { user_id: "nobody" } })).rejects.toMatchObject({
      status: 404,
      reason: "No user nobody",
    });
    await expect(
      control.call("waitForEmail", { query: { to: "none@example.com", timeoutMs: 0 } }),
    ).rejects.toMatchObject({ status: 408 });
  });

  it("writes queries under their URL names and path parameters encoded", () => {
    const control = controlClient({ baseUrl: "http://localhost:8102/" });
    expect(control.url("emails", { query: { projectId: "p 1", afterSeq: 3, kind: "magic_link" } })).toBe(
      "http://localhost:8102/__emulator/outbox?project_id=p+1&after_seq=3&kind=magic_link",
    );
    expect(control.url("fixture", { query: { projectIds: ["a", "b"] } })).toBe(
      "http://localhost:8102/__emulator/fixture?project_id=a&project_id=b",
    );
    expect(control.url("totp", { params: { user_id: "a/b" } })).toBe(
      "http://localhost:8102/__emulator/users/a%2Fb/totp",
    );
    expect(controlClient({ baseUrl: "" }).url("clock")).toBe("/__emulator/clock");
  });
});

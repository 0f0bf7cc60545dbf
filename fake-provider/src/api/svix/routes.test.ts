import { afterEach, describe, expect, it } from "vitest";
import { MessageStatus, Svix, Webhook } from "svix";
import { systemClock } from "@authsim/sdk/runtime";
import {
  DEV,
  INTERNAL,
  ORIGIN,
  admin,
  api,
  expectJson,
  newProvider,
  server,
  signUp,
  type TestProvider,
} from "../../test-support/api.ts";
import { receiverForTests } from "../../test-support/webhook-receiver.ts";
import { SVIX_PREFIX, svixPortFetch } from "./routes.ts";

/** Svix's REST API as the svix package's client, the real dashboard and the real e2e helpers call it. */

const receiver = receiverForTests();
let provider: TestProvider;
afterEach(() => {
  provider.work.stop();
  expect(provider.unexpected).toEqual([]);
});

async function svixToken(project = DEV): Promise<string> {
  return (
    await expectJson<{ token: string }>(
      await api(provider, "/webhooks/svix-token", { method: "POST", headers: admin({}, project), json: {} }),
    )
  ).token;
}
const base = `${ORIGIN}${SVIX_PREFIX}`;
const svixClient = (token: string) => new Svix(token, { serverUrl: base, fetch: provider.fetch as typeof fetch });
const raw = (path: string, token: string, init: RequestInit = {}) =>
  provider.fetch(`${base}${path}`, {
    ...init,
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json", ...init.headers },
  });

describe("the svix package's client", () => {
  it("gets the project's application, adds an endpoint, reads its secret; a sign-up is delivered and listed as an attempt and a message", async () => {
    provider = newProvider({ clock: systemClock });
    const svix = svixClient(await svixToken());
    const app = await svix.application.getOrCreate({ uid: DEV.id, name: DEV.id });
    expect(app).toMatchObject({ uid: DEV.id, name: DEV.id });
    expect(app.id).toMatch(/^app_[0-9a-zA-Z]{27}$/);
    const endpoint = await svix.endpoint.create(DEV.id, { url: receiver.url, description: "mine" });
    expect(endpoint).toMatchObject({ url: receiver.url, description: "mine", version: 1 });
    const { key } = await svix.endpoint.getSecret(DEV.id, endpoint.id);
    expect(key).toMatch(/^whsec_/);
    expect((await svix.endpoint.list(DEV.id)).data.map((e) => e.id)).toEqual([endpoint.id]);

    await signUp(provider);
    await provider.work.idle();
    const attempts = await svix.messageAttempt.listByEndpoint(DEV.id, endpoint.id);
    expect(attempts.data).toHaveLength(1);
    expect(attempts.data[0]).toMatchObject({
      status: MessageStatus.Success,
      responseStatusCode: 204,
      endpointId: endpoint.id,
      url: receiver.url,
    });
    const message = await svix.message.get(DEV.id, attempts.data[0]!.msgId);
    expect(message).toMatchObject({ eventType: "user.created", payload: { type: "user.created" } });
    const delivered = receiver.received[0]!;
    expect(new Webhook(key).verify(delivered.body, delivered.headers)).toEqual(message.payload);
  });

  it("creates a message as the real service does, and resends it", async () => {
    provider = newProvider({ clock: systemClock });
    const svix = svixClient(await svixToken());
    const endpoint = await svix.endpoint.create(DEV.id, { url: receiver.url, filterTypes: ["stack.test"] });
    const message = await svix.message.create(DEV.id, {
      eventType: "stack.test",
      payload: { type: "stack.test", data: { message: "hi" } },
    });
    expect(message.id).toMatch(/^msg_/);
    await provider.work.idle();
    await svix.messageAttempt.resend(DEV.id, message.id, endpoint.id);
    await provider.work.idle();
    const attempts = await svix.messageAttempt.listByMsg(DEV.id, message.id);
    expect(attempts.data.map((a) => a.triggerType)).toEqual([1, 0]);
    expect(receiver.received.map((r) => JSON.parse(r.body) as unknown)).toEqual([message.payload, message.payload]);
    // The endpoint's filter keeps other event types from it.
    await signUp(provider);
    await provider.work.idle();
    expect(receiver.received).toHaveLength(2);
  });
});

describe("as the real e2e helpers call it", () => {
  it("POST /endpoint, GET /attempt/endpoint/{id}, GET /msg/{id}?with_content=true: Svix's shapes", async () => {
    provider = newProvider();
    const token = await svixToken();
    // The real helpers register an endpoint nothing listens on: its attempts fail, and are listed all the same.
    const created = await raw(`/api/v1/app/${DEV.id}/endpoint`, token, {
      method: "POST",
      body: JSON.stringify({ url: "http://127.0.0.1:9/webhook" }),
    });
    expect(created.status).toBe(201);
    const endpointId = ((await created.json()) as { id: string }).id;
    const user = await expectJson<{ id: string }>(
      await api(provider, "/users", { headers: server(), json: { primary_email: "test@example.com" } }),
      201,
    );
    await provider.work.idle();
    const list = (await (await raw(`/api/v1/app/${DEV.id}/attempt/endpoint/${endpointId}`, token)).json()) as {
      data: { msgId: string; status: number }[];
      done: boolean;
      iterator: string | null;
    };
    expect(list).toMatchObject({ done: true, prevIterator: null });
    expect(list.data.map((a) => a.status)).toEqual([MessageStatus.Fail]);
    const message = (await (
      await raw(`/api/v1/app/${DEV.id}/msg/${list.data[0]!.msgId}?with_content=true`, token)
    ).json()) as Record<string, unknown>;
    expect(Object.keys(message).sort()).toEqual(["channels", "eventId", "eventType", "id", "payload", "timestamp"]);
    expect(message).toMatchObject({
      channels: null,
      eventId: null,
      eventType: "user.created",
      payload: { type: "user.created", data: { id: user.id, primary_email: "test@example.com" } },
    });
  });
});

describe("on Svix's own port", () => {
  it("the same API at the root, as the dev server's --svix-port serves it", async () => {
    provider = newProvider();
    const token = await svixToken();
    const atRoot = svixPortFetch((request) => provider.app.fetch(request));
    const created = await atRoot(
      new Request(`http://localhost:8113/api/v1/app/${DEV.id}/endpoint`, {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        body: JSON.stringify({ url: receiver.url }),
      }),
    );
    expect(created.status).toBe(201);
    expect(provider.webhooks.endpoints(DEV.id).map((e) => e.url)).toEqual([receiver.url]);
    expect((await atRoot(new Request(`http://localhost:8113/api/v1/app/${DEV.id}/endpoint`))).status).toBe(401);
  });
});

describe("from a page on another origin (the real dashboard's svix-react)", () => {
  it("answers the preflight for Svix's own headers, and every answer, a refusal too, may be read by the page", async () => {
    provider = newProvider();
    const token = await svixToken();
    const origin = { origin: "http://localhost:8101" };
    const preflight = await provider.fetch(`${base}/api/v1/app/${DEV.id}/endpoint`, {
      method: "OPTIONS",
      headers: {
        ...origin,
        "access-control-request-method": "POST",
        "access-control-request-headers": "authorization,content-type,idempotency-key,svix-req-id",
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("access-control-allow-origin")).toBe("*");
    expect(preflight.headers.get("access-control-allow-methods")).toContain("POST");
    expect(preflight.headers.get("access-control-allow-headers")).toBe(
      "authorization,content-type,idempotency-key,svix-req-id",
    );
    const created = await raw(`/api/v1/app/${DEV.id}/endpoint`, token, {
      method: "POST",
      headers: { ...origin, "svix-req-id": "1", "idempotency-key": "k" },
      body: JSON.stringify({ url: receiver.url }),
    });
    expect(created.status).toBe(201);
    expect(created.headers.get("access-control-allow-origin")).toBe("*");
    const listed = await raw(`/api/v1/app/${DEV.id}/endpoint`, token, { headers: origin });
    expect(listed.headers.get("access-control-allow-origin")).toBe("*");
    expect(((await listed.json()) as { data: { url: string }[] }).data.map((e) => e.url)).toEqual([receiver.url]);
    const refused = await raw(`/api/v1/app/${DEV.id}/endpoint`, "not-a-token", { headers: origin });
    expect(refused.status).toBe(401);
    expect(refused.headers.get("access-control-allow-origin")).toBe("*");
  });
});

describe("refusals", () => {
  it("401 without a token, 404 for another project's application or an unknown endpoint, 422 for a URL that is not http(s)", async () => {
    provider = newProvider();
    const token = await svixToken();
    const internalToken = await svixToken(INTERNAL);
    expect(await (await provider.fetch(`${base}/api/v1/app/${DEV.id}/endpoint`)).json()).toEqual({
      code: "authentication_failed",
      detail: "Invalid token",
    });
    const other = await raw(`/api/v1/app/${DEV.id}/endpoint`, internalToken);
    expect(other.status).toBe(404);
    expect(await other.json()).toEqual({ code: "not_found", detail: "Entity not found" });
    expect((await raw(`/api/v1/app/${DEV.id}/endpoint/ep_nothere`, token)).status).toBe(404);
    for (const url of ["ftp://example.com/x", "javascript:alert(1)", "nope"]) {
      const refused = await raw(`/api/v1/app/${DEV.id}/endpoint`, token, {
        method: "POST",
        body: JSON.stringify({ url }),
      });
      expect(refused.status).toBe(422);
      expect(await refused.json()).toMatchObject({ detail: [{ loc: ["body", "url"], type: "value_error" }] });
    }
    const badJson = await raw(`/api/v1/app/${DEV.id}/endpoint`, token, { method: "POST", body: "{" });
    expect(badJson.status).toBe(422);
    expect(provider.webhooks.endpoints(DEV.id)).toEqual([]);
  });
});

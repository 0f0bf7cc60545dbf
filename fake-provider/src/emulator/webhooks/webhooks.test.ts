import { afterEach, describe, expect, it } from "vitest";
import { Webhook } from "svix";
import { seededRandom, systemClock } from "@authsim/sdk/runtime";
import {
  DEV,
  START_MILLIS,
  api,
  client,
  expectJson,
  newProvider,
  server,
  signUp,
  type TestProvider,
} from "../../test-support/api.ts";
import { useSmtp } from "../../test-support/admin.ts";
import { CALLBACK } from "../../test-support/account.ts";
import { receiverForTests } from "../../test-support/webhook-receiver.ts";
import { RETRY_DELAYS_MILLIS } from "../../domain/ops/webhooks/webhooks.ts";
import { RESPONSE_LIMIT } from "../timed-work/webhook-worker.ts";

/** Webhooks end to end: a change announced, signed with Svix's scheme, posted to a real HTTP endpoint, retried on the clock. */

const receiver = receiverForTests();
let provider: TestProvider;
afterEach(() => {
  provider.work.stop();
  expect(provider.unexpected).toEqual([]);
});

// Svix's verify checks svix-timestamp against the wall clock (5 minutes either way), so these providers keep it.
const wallClock = systemClock;

describe("a user created", () => {
  it("reaches a real HTTP endpoint as a signed user.created that the svix package verifies, with the user's server view", async () => {
    provider = newProvider({ clock: wallClock });
    const endpoint = await provider.webhooks.addEndpoint(DEV.id, receiver.url);
    const user = await signUp(provider);
    const attempt = await provider.webhooks.waitFor({ eventType: "user.created" });
    expect(attempt).toMatchObject({
      projectId: DEV.id,
      endpointId: endpoint.id,
      statusCode: 204,
      status: "success",
      manual: false,
      url: receiver.url,
    });
    const [delivered] = receiver.received;
    const verified = new Webhook(endpoint.secret).verify(delivered!.body, delivered!.headers) as {
      type: string;
      data: unknown;
    };
    const view = await expectJson(await api(provider, `/users/${user.user_id}`, { headers: server() }));
    expect(verified).toEqual({ type: "user.created", data: view });
    expect(delivered!.headers["svix-id"]).toBe(attempt.msgId);
    expect(attempt.msgId).toMatch(/^msg_[0-9a-zA-Z]{27}$/);
  });

  it("is refused by the svix package with another endpoint's secret", async () => {
    provider = newProvider({ clock: wallClock });
    await provider.webhooks.addEndpoint(DEV.id, receiver.url);
    const other = await provider.webhooks.addEndpoint(DEV.id, "http://127.0.0.1:9/never");
    await signUp(provider);
    await provider.webhooks.waitFor({ eventType: "user.created", status: "success" });
    const [delivered] = receiver.received;
    expect(() => new Webhook(other.secret).verify(delivered!.body, delivered!.headers)).toThrow();
  });
});

describe("the changes announced", () => {
  it("users, teams, memberships and permissions, with the real event types and payloads; a refused request announces nothing", async () => {
    provider = newProvider({ frozenAtMillis: START_MILLIS });
    await provider.webhooks.addEndpoint(DEV.id, receiver.url);
    const user = await signUp(provider);
    const team = await expectJson<{ id: string }>(
      await api(provider, "/teams", { headers: server(), json: { display_name: "T" } }),
      201,
    );
    await expectJson(
      await api(provider, `/teams/${team.id}`, { method: "PATCH", headers: server(), json: { display_name: "T2" } }),
    );
    await expectJson(
      await api(provider, `/team-memberships/${team.id}/${user.user_id}`, { headers: server(), json: {} }),
      201,
    );
    await api(provider, `/team-memberships/${team.id}/${user.user_id}`, { method: "DELETE", headers: server() });
    // A sign-up with the same email is refused: nothing announced.
    expect(
      (
        await api(provider, "/auth/password/sign-up", {
          headers: { accessType: "client", projectId: DEV.id, publishableClientKey: DEV.keys.publishable_client_key },
          json: { email: user.email, password: "another password 1" },
        })
      ).status,
    ).toBe(409);
    await expectJson(
      await api(provider, `/users/${user.user_id}`, {
        method: "PATCH",
        headers: server(),
        json: { display_name: "Renamed" },
      }),
    );
    await expectJson(await api(provider, `/teams/${team.id}`, { method: "DELETE", headers: server() }));
    await expectJson(await api(provider, `/users/${user.user_id}`, { method: "DELETE", headers: server() }));
    await provider.work.idle();
    const types = provider.webhooks
      .messages(DEV.id)
      .map((m) => m.eventType)
      .reverse();
    expect(types).toEqual([
      "user.created",
      "team.created",
      "team.updated",
      "team_membership.created",
      // The project's member default permission, given with the membership.
      "team_permission.created",
      "team_membership.deleted",
      "user.updated",
      "team.deleted",
      "user.deleted",
    ]);
    const payloads = Object.fromEntries(provider.webhooks.messages(DEV.id).map((m) => [m.eventType, m.payload]));
    expect(payloads["team_membership.created"]).toEqual({
      type: "team_membership.created",
      data: { team_id: team.id, user_id: user.user_id },
    });
    expect(payloads["team_permission.created"]).toEqual({
      type: "team_permission.created",
      data: { id: expect.any(String), team_id: team.id, user_id: user.user_id },
    });
    expect(payloads["team.deleted"]).toEqual({ type: "team.deleted", data: { id: team.id } });
    expect(payloads["user.deleted"]).toEqual({ type: "user.deleted", data: { id: user.user_id, teams: [] } });
    expect((payloads["user.updated"] as { data: { display_name: string } }).data.display_name).toBe("Renamed");
    // With the clock frozen, every delivery went out without the clock moving.
    expect(provider.webhooks.attempts().map((a) => a.status)).toEqual(types.map(() => "success"));
  });

  it("a password reset is a user update (the real handler sets it through its users update); a password change is not", async () => {
    provider = newProvider({ frozenAtMillis: START_MILLIS });
    await provider.webhooks.addEndpoint(DEV.id, receiver.url);
    const user = await signUp(provider);
    await expectJson(
      await api(provider, "/auth/password/send-reset-code", {
        headers: client(),
        json: { email: user.email, callback_url: CALLBACK },
      }),
    );
    const code = provider.outbox.latest({ to: user.email, kind: "password_reset" })!.code!;
    await expectJson(
      await api(provider, "/auth/password/reset", { headers: client(), json: { code, password: "a brand new one" } }),
    );
    const signedIn = await expectJson<{ access_token: string }>(
      await api(provider, "/auth/password/sign-in", {
        headers: client(),
        json: { email: user.email, password: "a brand new one" },
      }),
    );
    await expectJson(
      await api(provider, "/auth/password/update", {
        headers: client({ accessToken: signedIn.access_token }),
        json: { old_password: "a brand new one", new_password: "and another one" },
      }),
    );
    await provider.work.idle();
    const types = provider.webhooks
      .messages(DEV.id)
      .map((m) => m.eventType)
      .reverse();
    expect(types.filter((t) => t.startsWith("user."))).toEqual(["user.created", "user.updated"]);
  });
});

describe("a failing endpoint", () => {
  it("sees retries as the clock advances past each backoff, and not before; every attempt is recorded", async () => {
    provider = newProvider({ frozenAtMillis: START_MILLIS });
    receiver.answer = (res) => res.writeHead(500, { "content-type": "text/plain" }).end("down for maintenance");
    const endpoint = await provider.webhooks.addEndpoint(DEV.id, receiver.url);
    await signUp(provider);
    await provider.work.idle();
    expect(provider.webhooks.attempts({ endpointId: endpoint.id })).toMatchObject([
      { statusCode: 500, response: "down for maintenance", status: "fail", durationMillis: 0 },
    ]);
    const [message] = provider.webhooks.messages(DEV.id);
    expect(message!.deliveries).toEqual([
      {
        endpointId: endpoint.id,
        status: "pending",
        attempts: 1,
        nextAttemptAtMillis: START_MILLIS + RETRY_DELAYS_MILLIS[0],
      },
    ]);
    provider.clock.advance(RETRY_DELAYS_MILLIS[0] - 1);
    await provider.work.runDue();
    expect(receiver.received).toHaveLength(1);
    receiver.answer = (res) => res.writeHead(200).end("ok");
    provider.clock.advance(1);
    await provider.work.runDue();
    expect(receiver.received).toHaveLength(2);
    expect(provider.webhooks.attempts({ endpointId: endpoint.id }).map((a) => [a.statusCode, a.atMillis])).toEqual([
      [500, START_MILLIS],
      [200, START_MILLIS + RETRY_DELAYS_MILLIS[0]],
    ]);
    expect(provider.webhooks.messages(DEV.id)[0]!.deliveries[0]).toMatchObject({
      status: "success",
      attempts: 2,
      nextAttemptAtMillis: null,
    });
  });

  it("fails for good once the schedule is spent; a resend tries once more, recorded as manual", async () => {
    provider = newProvider({ frozenAtMillis: START_MILLIS });
    receiver.answer = (res) => res.writeHead(503).end();
    const endpoint = await provider.webhooks.addEndpoint(DEV.id, receiver.url);
    await signUp(provider);
    await provider.work.idle();
    for (const delay of RETRY_DELAYS_MILLIS) {
      provider.clock.advance(delay);
      await provider.work.runDue();
    }
    expect(provider.webhooks.attempts()).toHaveLength(RETRY_DELAYS_MILLIS.length + 1);
    const [message] = provider.webhooks.messages(DEV.id);
    expect(message!.deliveries[0]).toMatchObject({ status: "fail", nextAttemptAtMillis: null });
    expect(provider.work.pending()).toEqual([]);
    receiver.answer = (res) => res.writeHead(200).end();
    await provider.webhooks.resend(DEV.id, message!.id, endpoint.id);
    await provider.work.idle();
    expect(provider.webhooks.attempts().at(-1)).toMatchObject({ statusCode: 200, status: "success", manual: true });
  });
});

describe("bad endpoints never block the API nor lose a message", () => {
  it("refuses an endpoint URL that is not http(s)", async () => {
    provider = newProvider();
    for (const url of ["ftp://example.com/hook", "javascript:alert(1)", "not a url", "file:///etc/passwd"]) {
      await expect(provider.webhooks.addEndpoint(DEV.id, url)).rejects.toThrow(/invalid url/);
    }
    expect(provider.webhooks.endpoints(DEV.id)).toEqual([]);
  });

  it("an unreachable endpoint is a failed attempt without a status, retried later", async () => {
    provider = newProvider({ frozenAtMillis: START_MILLIS });
    await provider.webhooks.addEndpoint(DEV.id, "http://127.0.0.1:9/closed");
    await signUp(provider);
    await provider.work.idle();
    const [attempt] = provider.webhooks.attempts();
    expect(attempt).toMatchObject({ statusCode: 0, status: "fail" });
    expect(attempt!.response.length).toBeGreaterThan(0);
    expect(provider.work.pending()).toEqual([
      {
        kind: "webhook-delivery",
        what: "webhook attempt",
        count: 1,
        dueAtMillis: START_MILLIS + RETRY_DELAYS_MILLIS[0],
      },
    ]);
  });

  it("a slow endpoint times out as a failed attempt, and requests are answered meanwhile", async () => {
    provider = newProvider({ frozenAtMillis: START_MILLIS, webhookTimeoutMillis: 300 });
    receiver.answer = () => undefined; // never answers
    await provider.webhooks.addEndpoint(DEV.id, receiver.url);
    await signUp(provider);
    // The delivery is under way; the API answers regardless.
    expect((await api(provider, "/users", { headers: server() })).status).toBe(200);
    const attempt = await provider.webhooks.waitFor({ eventType: "user.created" }, { timeoutMs: 10_000 });
    expect(attempt).toMatchObject({ statusCode: 0, status: "fail" });
    expect(attempt.response).toMatch(/timed out/);
  });

  it("a huge answer is read only up to the limit, and still counts by its status", async () => {
    provider = newProvider({ frozenAtMillis: START_MILLIS });
    receiver.answer = (res) => {
      res.writeHead(200, { "content-type": "text/plain" });
      const chunk = "x".repeat(64 * 1024);
      let sent = 0;
      const more = () => {
        while (sent < 256 && res.write(chunk)) sent++;
        if (sent < 256) res.once("drain", more);
        else res.end();
      };
      res.on("error", () => undefined);
      more();
    };
    await provider.webhooks.addEndpoint(DEV.id, receiver.url);
    await signUp(provider);
    const attempt = await provider.webhooks.waitFor({ eventType: "user.created" }, { timeoutMs: 10_000 });
    expect(attempt).toMatchObject({ statusCode: 200, status: "success" });
    expect(attempt.response).toHaveLength(RESPONSE_LIMIT);
  });
});

describe("determinism", () => {
  it("two --deterministic runs leave byte-identical webhook logs and outboxes", async () => {
    const run = async () => {
      provider = newProvider({ frozenAtMillis: START_MILLIS, ids: seededRandom("webhook-determinism") });
      receiver.answer = (res) => res.writeHead(200, { "content-type": "text/plain" }).end("thanks");
      await useSmtp(provider);
      await provider.webhooks.addEndpoint(DEV.id, receiver.url);
      const user = await signUp(provider, { email: "same@example.com" });
      await expectJson(
        await api(provider, "/emails/send-email", {
          headers: server(),
          json: { user_ids: [user.user_id], html: "<p>Hi</p>", subject: "Hello" },
        }),
      );
      await expectJson(
        await api(provider, `/users/${user.user_id}`, {
          method: "PATCH",
          headers: server(),
          json: { display_name: "Same" },
        }),
      );
      await provider.work.idle();
      const log = JSON.stringify({
        messages: provider.webhooks.messages(DEV.id),
        attempts: provider.webhooks.attempts(),
        outbox: provider.outbox.list(),
      });
      provider.work.stop();
      return log;
    };
    const first = await run();
    const second = await run();
    expect(first).toContain("user.updated");
    expect(second).toBe(first);
    // Two providers, each rendering an email in QuickJS: generous on a busy machine.
  }, 60_000);
});

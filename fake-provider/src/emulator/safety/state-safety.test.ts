import { describe, expect, it } from "vitest";
import { DEV, admin, api, request, server, newProvider, signUp } from "../../test-support/api.ts";
import { changeQuantity, quantity, useTestCatalogue } from "../../test-support/payments.ts";
import { LATEST_CLOCK_MILLIS } from "../../clock.ts";

/**
 * Issue 14, findings 2 and 7: state a request can reach must stay sound. A config override must not write onto
 * Object.prototype (which broke every later request, and reset could not undo it); quantities stay exact; the clock
 * stays where tokens and dates still parse; the outbox and the request log keep a bounded number of entries.
 */

const overrideBody = (override: Record<string, unknown> | string) => ({
  config_override_string: typeof override === "string" ? override : JSON.stringify(override),
});

describe("config overrides cannot pollute prototypes (finding 2)", () => {
  const hostile = [
    '{"__proto__.allow_negative":true}',
    '{"__proto__":{"allow_negative":true}}',
    '{"constructor.prototype.allow_negative":true}',
    '{"payments":{"__proto__":{"allow_negative":true}}}',
    '{"a.constructor.prototype.x":1}',
    '{"constructor":true}',
  ];

  it.each(hostile)("%s is refused with a 400 and the process stays sound", async (override) => {
    const provider = newProvider();
    const response = await api(provider, "/internal/config/override/environment", {
      method: "PATCH",
      headers: admin(),
      json: overrideBody(override),
    });
    expect(response.status).toBe(400);
    expect(Object.prototype).not.toHaveProperty("allow_negative");
    expect(Object.prototype).not.toHaveProperty("x");
    // Every later request still works, and so does reset.
    const me = await api(provider, "/projects/current", { headers: server() });
    expect(me.status).toBe(200);
    expect((await api(provider, "/internal/config", { headers: admin() })).status).toBe(200);
    provider.reset();
    expect(provider.store.read.projects.get(DEV.id)).toBeDefined();
    expect(provider.unexpected).toEqual([]);
  });

  it("an ordinary key still works", async () => {
    const provider = newProvider();
    const response = await api(provider, "/internal/config/override/environment", {
      method: "PATCH",
      headers: admin(),
      json: overrideBody({ "teams.allowClientTeamCreation": true }),
    });
    expect(response.status).toBe(200);
  });
});

describe("bounds (finding 7)", () => {
  it("an item delta beyond a 32-bit Int is a schema error, and sums stay exact", async () => {
    const provider = newProvider();
    await useTestCatalogue(provider);
    const target = { type: "custom", id: "org_1", item: "tokens" };
    for (const delta of [2 ** 53 - 1, -(2 ** 53 - 1), 2 ** 31, -(2 ** 31) - 1]) {
      const response = await changeQuantity(provider, target, { delta }, { allowNegative: true });
      expect(response.status).toBe(400);
      expect(response.headers.get("x-stack-known-error") ?? response.headers.get("x-hexclave-known-error")).toBe(
        "SCHEMA_ERROR",
      );
    }
    for (const delta of [2 ** 31 - 1, 2 ** 31 - 1, 1, -(2 ** 31), 3]) {
      expect((await changeQuantity(provider, target, { delta }, { allowNegative: true })).status).toBe(200);
    }
    expect(await quantity(provider, target.type, target.id, target.item)).toBe(
      2 ** 31 - 1 + 2 ** 31 - 1 + 1 - 2 ** 31 + 3,
    );
  });

  it("the clock cannot be frozen or advanced past the end of year 9999", async () => {
    const provider = newProvider();
    const before = provider.clock.now();
    const post = (path: string, body: unknown) =>
      request(provider, `/__emulator/clock/${path}`, { method: "POST", json: body });
    for (const at_millis of [9e15, LATEST_CLOCK_MILLIS + 1]) {
      const response = await post("freeze", { at_millis });
      expect(response.status).toBe(400);
      expect(((await response.json()) as { error: string }).error).toContain("9999");
    }
    expect((await post("advance", { millis: LATEST_CLOCK_MILLIS })).status).toBe(400);
    expect(provider.clock.now()).toBe(before);
    // At the latest instant tokens are still minted and read back.
    expect((await post("freeze", { at_millis: LATEST_CLOCK_MILLIS - 3_600_000 * 24 * 366 })).status).toBe(200);
    const user = await signUp(provider);
    expect(
      (
        await api(provider, "/users/me", {
          headers: {
            accessType: "client",
            projectId: DEV.id,
            publishableClientKey: DEV.keys.publishable_client_key,
            accessToken: user.access_token,
          },
        })
      ).status,
    ).toBe(200);
  });

  it("a snapshot with a clock out of range is refused", async () => {
    const provider = newProvider();
    const snapshot = provider.snapshot();
    const response = await request(provider, "/__emulator/restore", {
      method: "POST",
      json: { ...snapshot, clock: { offsetMillis: 0, frozenAtMillis: 9e15 } },
    });
    expect(response.status).toBe(400);
  });

  it("the outbox keeps its newest emails up to its capacity and counts what it dropped", async () => {
    const provider = newProvider({ outboxCapacity: 5 });
    for (let i = 0; i < 8; i++) {
      const email = `cap-${i}@example.com`;
      await api(provider, "/auth/otp/send-sign-in-code", {
        headers: { accessType: "client", projectId: DEV.id, publishableClientKey: DEV.keys.publishable_client_key },
        json: { email, callback_url: "http://localhost:3000/handler/magic-link-callback" },
      });
    }
    const kept = provider.outbox.list();
    expect(kept.map((e) => e.to[0])).toEqual([3, 4, 5, 6, 7].map((i) => `cap-${i}@example.com`));
    const listed = (await (await request(provider, "/__emulator/outbox")).json()) as {
      items: unknown[];
      dropped: number;
    };
    expect(listed.items).toHaveLength(5);
    expect(listed.dropped).toBe(3);
    provider.reset();
    expect(((await (await request(provider, "/__emulator/outbox")).json()) as { dropped: number }).dropped).toBe(0);
  });

  it("the request log keeps its capacity and counts what fell out", async () => {
    const provider = newProvider({ requestLogCapacity: 3 });
    for (let i = 0; i < 5; i++) await api(provider, "/projects/current", { headers: server() });
    const page = (await (await request(provider, "/__emulator/requests")).json()) as {
      items: unknown[];
      dropped: number;
    };
    expect(page.items).toHaveLength(3);
    expect(page.dropped).toBe(2);
  });
});

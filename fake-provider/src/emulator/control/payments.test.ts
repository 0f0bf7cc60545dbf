import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { DEV, expectJson, newProvider, request, type TestProvider } from "../../test-support/api.ts";
import { configurePayments } from "./payments.ts";
import { quantity, testCatalogue } from "../../test-support/payments.ts";

/** The emulator's payments-config control endpoint and its in-process form (emulator/control/payments.ts). */

let provider: TestProvider;
beforeEach(() => {
  provider = newProvider();
});
afterEach(() => {
  expect(provider.unexpected).toEqual([]);
});

const configPath = `/__emulator/projects/${DEV.id}/payments-config`;
type ConfigView = {
  payments: { items: Record<string, unknown>; offers: Record<string, Record<string, unknown>> };
  data_vault: { stores: Record<string, unknown> };
};

describe("/__emulator/projects/:id/payments-config", () => {
  it("shows the dev project's seeded catalogue and vault store", async () => {
    const config = await expectJson<ConfigView>(await request(provider, configPath));
    expect(Object.keys(config.payments.items).sort()).toEqual(["api-calls", "credits", "seats"]);
    expect(config.payments.offers["credit-pack"]).toMatchObject({
      customer_type: "user",
      stackable: true,
      server_only: false,
      hidden: false,
    });
    expect(config.payments.offers["enterprise-grant"]).toMatchObject({ server_only: true });
    expect(config.payments.offers["beta-pack"]).toMatchObject({ hidden: true });
    expect(config.data_vault).toEqual({ stores: { default: { display_name: "Default store" } } });
  });

  it("replaces the sections a PUT names and keeps the others; reset brings the seed back", async () => {
    const put = await request(provider, configPath, { method: "PUT", json: { payments: testCatalogue } });
    const config = await expectJson<ConfigView>(put);
    expect(Object.keys(config.payments.offers)).toContain("team-pack");
    expect(config.data_vault.stores).toHaveProperty("default");
    expect(await expectJson<ConfigView>(await request(provider, configPath))).toEqual(config);
    await expectJson(await request(provider, "/__emulator/reset", { method: "POST" }));
    expect(Object.keys((await expectJson<ConfigView>(await request(provider, configPath))).payments.offers)).toContain(
      "credit-pack",
    );
  });

  it("refuses invalid config with 400 and the problems, and leaves the config as it was", async () => {
    const cases: [unknown, string][] = [
      [{ payments: { items: { "bad id": { display_name: "x", customer_type: "user" } } } }, "payments.items.bad id"],
      [
        {
          payments: {
            items: {},
            offers: {
              o: { display_name: "O", customer_type: "user", prices: {}, included_items: { ghost: { quantity: 1 } } },
            },
          },
        },
        'no item "ghost"',
      ],
      [
        {
          payments: {
            items: { t: { display_name: "T", customer_type: "team" } },
            offers: {
              o: { display_name: "O", customer_type: "user", prices: {}, included_items: { t: { quantity: 1 } } },
            },
          },
        },
        "the item is for team customers, the offer for user",
      ],
      [{ data_vault: { stores: { s: { display_name: 3 } } } }, "data_vault.stores.s.display_name"],
      [{ extra: true }, "Unrecognized key"],
    ];
    for (const [body, problem] of cases) {
      const response = await request(provider, configPath, { method: "PUT", json: body });
      expect(response.status).toBe(400);
      const answer = (await response.json()) as { error: string; issues: string[] };
      expect(answer.error).toBe("Invalid payments config");
      expect(answer.issues.join("\n")).toContain(problem);
    }
    expect((await expectJson<ConfigView>(await request(provider, configPath))).payments.items).toHaveProperty(
      "credits",
    );
  });

  it("answers 404 for an unknown project and 400 for a body that is not JSON", async () => {
    expect((await request(provider, "/__emulator/projects/nope/payments-config")).status).toBe(404);
    expect(
      (await request(provider, "/__emulator/projects/nope/payments-config", { method: "PUT", json: {} })).status,
    ).toBe(404);
    expect(
      (await request(provider, configPath, { method: "PUT", body: "{", contentType: "application/json" })).status,
    ).toBe(400);
  });

  it("has an in-process form, configurePayments", async () => {
    const view = await configurePayments(provider, DEV.id, {
      payments: { items: { gems: { display_name: "Gems", customer_type: "custom" } } },
    });
    expect(view.payments.items).toEqual({ gems: { display_name: "Gems", customer_type: "custom" } });
    expect(await quantity(provider, "custom", "c", "gems")).toBe(0);
    await expect(configurePayments(provider, "nope", {})).rejects.toThrow(/no project nope/);
  });
});

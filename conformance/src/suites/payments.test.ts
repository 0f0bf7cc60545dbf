import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { StackServerApp as PublishedServerApp } from "@stackframe/js";
import type { FakeProvider } from "@authsim/fake-provider";
import { serveFakeProvider } from "../harness/serve.ts";
import { controlOf, inProcessTarget, urlTarget, type InProcessTarget, type Target } from "../targets.ts";
import { dataVaultCases } from "./data-vault.case.ts";
import { paymentCases } from "./payments.case.ts";
import { useConformanceCatalogue } from "./payments-support.ts";
import { serverApp, uniqueTag } from "./support.ts";

/**
 * The payments and data-vault suites against the fake in this process (a fresh provider per test) and against one fake
 * served on a loopback port (shared by every case, as a long-lived server would be). The published SDK then reads what
 * ours wrote and the other way round, over the port: the vault format and the item wire are the same.
 */

let inProcess: InProcessTarget = inProcessTarget();
describe("payments conformance: in-process fake", () => {
  beforeEach(() => {
    inProcess = inProcessTarget();
  });
  paymentCases(() => inProcess);
  dataVaultCases(() => inProcess);
});

const served = await serveFakeProvider();
afterAll(() => served.close());
const overUrl: Target & { provider: FakeProvider } = {
  ...urlTarget({ baseUrl: served.baseUrl, hasControls: true }),
  provider: served.provider,
};

describe(`payments conformance: fake over HTTP (${overUrl.name})`, () => {
  paymentCases(() => overUrl);
  dataVaultCases(() => overUrl);
});

describe("published @stackframe/js 2.8.108 and @authsim/sdk on one fake", () => {
  // The published options type wants env-derived literals; these are its documented constructor options.
  type PublishedOptions = ConstructorParameters<typeof PublishedServerApp>[0];
  const published = () =>
    new PublishedServerApp({
      baseUrl: overUrl.baseUrl,
      projectId: overUrl.projectId,
      publishableClientKey: overUrl.publishableClientKey,
      secretServerKey: overUrl.secretServerKey,
      tokenStore: "memory",
      noAutomaticPrefetch: true,
      analytics: { enabled: false },
    } as PublishedOptions);

  it("reads each other's vault values (same hashing and encryption), and a wrong secret finds nothing", async () => {
    await useConformanceCatalogue(overUrl);
    const theirs = await published().getDataVaultStore("conformance");
    const ours = await serverApp(overUrl).getDataVaultStore("conformance");
    const [k1, k2] = [uniqueTag("interop"), uniqueTag("interop")];
    await theirs.setValue(k1, "written by the published SDK ✓", { secret: "shared secret" });
    expect(await ours.getValue(k1, { secret: "shared secret" })).toBe("written by the published SDK ✓");
    await ours.setValue(k2, "written by @authsim/sdk ✓", { secret: "shared secret" });
    expect(await theirs.getValue(k2, { secret: "shared secret" })).toBe("written by @authsim/sdk ✓");
    expect(await ours.getValue(k1, { secret: "another secret" })).toBeNull();
  });

  it("sees the quantities our SDK changed, and its changes are seen by ours", async () => {
    await useConformanceCatalogue(overUrl);
    const customCustomerId = uniqueTag("interop-org");
    const ours = await serverApp(overUrl).getItem({ itemId: "tokens", customCustomerId });
    await ours.increaseQuantity(12);
    const theirs = await published().getItem({ itemId: "tokens", customCustomerId });
    expect(theirs.quantity).toBe(12);
    expect(await theirs.tryDecreaseQuantity(20)).toBe(false);
    await theirs.decreaseQuantity(2);
    expect((await serverApp(overUrl).getItem({ itemId: "tokens", customCustomerId })).quantity).toBe(10);
  });

  it("saves a card through a setup intent the published SDK made, which ours reads back as the default, and the other way round", async () => {
    await useConformanceCatalogue(overUrl);
    const user = await serverApp(overUrl).createUser({});
    const confirm = async (clientSecret: string, number: string) =>
      (
        await controlOf(overUrl).call("confirmSetupIntent", {
          body: { client_secret: clientSecret, card: { number, exp_month: 9, exp_year: 2035 } },
        })
      ).id;

    const theirUser = (await published().getUser(user.id))!;
    const theirIntent = await theirUser.createPaymentMethodSetupIntent();
    expect(theirIntent.stripeAccountId).toMatch(/^acct_/);
    const visa = await theirUser.setDefaultPaymentMethodFromSetupIntent(
      await confirm(theirIntent.clientSecret, "4000056655665556"),
    );
    expect(visa).toMatchObject({ brand: "visa", last4: "5556", exp_month: 9, exp_year: 2035 });
    expect(await user.getBilling()).toEqual({ hasCustomer: true, defaultPaymentMethod: visa });

    const ourIntent = await user.createPaymentMethodSetupIntent();
    const amex = await user.setDefaultPaymentMethodFromSetupIntent(
      await confirm(ourIntent.clientSecret, "371449635398431"),
    );
    expect(amex).toMatchObject({ brand: "amex", last4: "8431" });
    expect(await theirUser.getBilling()).toEqual({ hasCustomer: true, defaultPaymentMethod: amex });
  });
});

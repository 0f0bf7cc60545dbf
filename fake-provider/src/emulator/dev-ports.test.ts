import { describe, expect, it } from "vitest";
import { api, client, newProvider, signUp } from "../test-support/api.ts";
import { CALLBACK } from "../test-support/account.ts";
import { purchaseUrl, setUpPayments, useTestCatalogue } from "../test-support/payments.ts";
import { CONTROL_PREFIX } from "./control/routes.ts";
import { purchasePortFetch } from "./control/payments.ts";
import { inbucketFetch, mailboxName } from "./outbox/inbucket.ts";

/**
 * The pieces the dev server's `--dev-ports` serves on the real development setup's ports, in process: purchase URLs on
 * the dashboard's port and the purchase pages there (<prefix>01), and the Inbucket mailbox API over the outbox
 * (<prefix>05). The ports themselves: authsim/src/dev-ports.spawn.test.ts.
 */

const DASHBOARD = "http://localhost:8101";

async function buyerWithUrl(dashboardUrl?: string) {
  const provider = newProvider(dashboardUrl ? { dashboardUrl } : {});
  await useTestCatalogue(provider);
  await setUpPayments(provider);
  const user = await signUp(provider);
  const url = await purchaseUrl(provider, client({ accessToken: user.access_token }), {
    customer_type: "user",
    customer_id: user.user_id,
    product_id: "pack",
  });
  return { provider, url };
}

describe("purchase URLs and the purchase port", () => {
  it("name the dashboard's /purchase/{code} when a dashboard URL is set, the emulator's checkout page otherwise", async () => {
    const { provider, url } = await buyerWithUrl(DASHBOARD);
    expect(url).toMatch(/^http:\/\/localhost:8101\/purchase\/[a-z0-9_-]+$/);
    const own = await buyerWithUrl();
    expect(own.url).toMatch(/^http:\/\/localhost:8102\/__emulator\/purchase\/[a-z0-9_-]+$/);
    expect(provider.unexpected).toEqual([]);
  });

  it("the purchase port answers the page at /purchase/{code}, its form, and nothing else", async () => {
    const { provider, url } = await buyerWithUrl(DASHBOARD);
    const port = purchasePortFetch((request) => provider.app.fetch(request), CONTROL_PREFIX);
    const page = await port(new Request(url));
    const html = await page.text();
    expect(page.status).toBe(200);
    const action = /<form method="post" action="([^"]+)"/.exec(html)![1]!.replaceAll("&#x2F;", "/");
    expect(action).toMatch(/^\/__emulator\/checkout\//);
    const done = await port(
      new Request(new URL(action, DASHBOARD), {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: "",
      }),
    );
    expect([done.status, await done.text()]).toEqual([200, expect.stringContaining("Purchase complete")]);
    for (const path of ["/", "/projects", "/__emulator/outbox", "/__emulator/checkout/a/b", "/purchase/a/b"])
      expect((await port(new Request(new URL(path, DASHBOARD)))).status, path).toBe(404);
  });
});

describe("the Inbucket mailbox API over the outbox", () => {
  it("lists a mailbox's messages and answers each with its bodies, as the real suite's Mailbox reads them", async () => {
    const provider = newProvider();
    // A sign-up with a verification callback: the verification email.
    await api(provider, "/auth/password/sign-up", {
      headers: client(),
      json: {
        email: "Mailbox-Test+tag@example.com",
        password: "correct horse battery",
        verification_callback_url: CALLBACK,
      },
    });
    const mailbox = inbucketFetch(provider);
    const list = await mailbox(new Request("http://localhost:8105/api/v1/mailbox/mailbox-test"));
    const messages = (await list.json()) as Record<string, unknown>[];
    const sent = provider.outbox.list({ to: "Mailbox-Test+tag@example.com" });
    expect(sent.length).toBeGreaterThan(0);
    expect(messages).toEqual(
      sent.map((e) => ({
        mailbox: "mailbox-test",
        id: e.id,
        from: expect.stringMatching(/ <noreply@example\.com>$/),
        // The address as stored: normalized (trimmed, lower case), as the real service stores and sends to it.
        to: ["<mailbox-test+tag@example.com>"],
        subject: e.subject,
        date: new Date(e.sentAtMillis).toISOString(),
        "posix-millis": e.sentAtMillis,
        size: e.text.length + e.html.length,
        seen: false,
      })),
    );
    const one = (await (
      await mailbox(new Request(`http://localhost:8105/api/v1/mailbox/mailbox-test/${sent[0]!.id}`))
    ).json()) as { body: { text: string; html: string }; attachments: unknown[]; header: Record<string, string[]> };
    expect(one).toMatchObject({ body: { text: sent[0]!.text, html: sent[0]!.html }, attachments: [] });
    expect(one.header.Subject).toEqual([sent[0]!.subject]);
    expect((await mailbox(new Request("http://localhost:8105/api/v1/mailbox/someone-else"))).status).toBe(200);
    expect(await (await mailbox(new Request("http://localhost:8105/api/v1/mailbox/someone-else"))).json()).toEqual([]);
    expect((await mailbox(new Request("http://localhost:8105/api/v1/mailbox/mailbox-test/nope"))).status).toBe(404);
    expect((await mailbox(new Request("http://localhost:8105/api/v2/other"))).status).toBe(404);
  });

  it("names a mailbox as Inbucket does: the local part, lower case, without a +tag", () => {
    expect(mailboxName("Ada.Lovelace+news@Example.com")).toBe("ada.lovelace");
    expect(mailboxName("default-mailbox--abc@stack-generated.example.com")).toBe("default-mailbox--abc");
  });
});

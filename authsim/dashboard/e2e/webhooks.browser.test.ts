import { mkdir } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, expect, it } from "vitest";
import { devProjectSeed as dev } from "@authsim/fixtures";
import { controlClient } from "@authsim/sdk/emulator";
import { describeInChromium, launchChromium, type LaunchedBrowser } from "@authsim/fake-provider/testing";
import { startCli, type StartedCli } from "authsim/testing";
import { saveScreenshot } from "./screenshot.ts";
import { startReceiver, type Receiver } from "../../../fake-provider/src/test-support/webhook-receiver.ts";

/**
 * The Webhooks tab in real Chromium against the real dev server: an endpoint that fails, a user created through the
 * API, the message and its failed attempt shown with the endpoint's answer, the retry waiting in the clock bar, then
 * "+1 min" and "Resend" each adding an attempt the tab shows. A screenshot goes to authsim/test-artifacts/.
 */
const artifacts = fileURLToPath(new URL("../../test-artifacts/", import.meta.url));
const serverHeaders = {
  "x-stack-access-type": "server",
  "x-stack-project-id": dev.id,
  "x-stack-secret-server-key": dev.keys.secret_server_key,
  "content-type": "application/json",
};

describeInChromium("the Webhooks tab in Chromium", () => {
  let cli: StartedCli;
  let browser: LaunchedBrowser;
  let page: Page;
  let receiver: Receiver;
  const pageErrors: string[] = [];

  beforeAll(async () => {
    await mkdir(artifacts, { recursive: true });
    receiver = await startReceiver();
    receiver.answer = (res) => res.writeHead(500, { "content-type": "text/plain" }).end("endpoint is down");
    cli = await startCli([]);
    browser = await launchChromium();
    page = browser.context.pages()[0] ?? (await browser.context.newPage());
    page.setDefaultTimeout(15_000);
    page.on("pageerror", (error) => pageErrors.push(error.message));
    page.on("console", (message) => message.type() === "error" && pageErrors.push(`console: ${message.text()}`));
  });

  afterAll(async () => {
    await browser?.close();
    await cli?.stop();
    await receiver?.close();
  });

  it("shows a failing endpoint's attempts, the retry waiting for its instant, and the attempts that resend and the clock add", async () => {
    const control = controlClient({ baseUrl: cli.url });
    // Frozen, so the retry waits for the clock bar's "+1 min" rather than 5 s of real time.
    await control.call("freezeClock", { body: {} });
    await control.call("addWebhookEndpoint", { body: { projectId: dev.id, url: receiver.url } });
    const created = await fetch(`${cli.url}/api/v1/users`, {
      method: "POST",
      headers: serverHeaders,
      body: JSON.stringify({ primary_email: "hook@example.com" }),
    });
    expect(created.status).toBe(201);
    await control.call("waitForWebhookAttempt", {
      query: { projectId: dev.id, eventType: "user.created", timeoutMs: 10_000 },
    });

    await page.goto(`${cli.url}/#webhooks`);
    await page.getByTestId("webhook-endpoints").getByRole("cell", { name: receiver.url }).waitFor();
    await page.getByTestId("webhook-messages").getByText("user.created").waitFor();
    const attempts = page.getByTestId("webhook-attempts");
    await attempts.getByText("500 failed").waitFor();
    await attempts.getByText("endpoint is down").waitFor();
    // The retry (5 s later on the emulator's clock) waits in the clock bar.
    expect(await page.getByTestId("pending-work").textContent()).toMatch(
      /1 webhook attempt waits for .* \(emulator time\)/,
    );

    // The scheduled retry runs once the clock passes it (and fails again).
    await page.getByRole("button", { name: "+1 min" }).click();
    await expect.poll(async () => attempts.getByText("500 failed").count(), { timeout: 15_000 }).toBe(2);

    receiver.answer = (res) => res.writeHead(200, { "content-type": "text/plain" }).end("got it");
    await attempts.getByRole("button", { name: "Resend" }).first().click();
    await attempts.getByText("200 ok").waitFor();
    await attempts.getByText("resent").waitFor();
    expect(receiver.received).toHaveLength(3);
    await saveScreenshot(page, "dashboard-webhooks", { dir: artifacts });
    expect(pageErrors).toEqual([]);
  });
});

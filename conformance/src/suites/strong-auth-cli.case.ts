import { describe, expect, it } from "vitest";
import type { Target } from "../targets.ts";
import { clientApp, clientWithTokens, signedUpClient } from "./support.ts";

/** Command-line login through our SDK (protocol.md §7.7; spec §4, §8 "CLI auth", §9: 2000 ms waits, unlimited tries). */
export function cliCases(getTarget: () => Target): void {
  describe("CLI login", () => {
    it("hands the confirming browser's session to the CLI, polling with the injected wait", async () => {
      const target = getTarget();
      const browser = await signedUpClient(target);
      let confirmed: Promise<unknown> = Promise.resolve();
      const waits: number[] = [];
      // The CLI's waits are where the person confirms in the browser; no real time passes.
      const cli = clientApp(target, {
        sleep: async (ms) => {
          waits.push(ms);
          await confirmed;
        },
      });
      const prompted: string[] = [];
      const result = await cli.promptCliLogin({
        appUrl: "https://app.example.com",
        promptLink: (url, loginCode) => {
          prompted.push(url);
          confirmed = browser.app.completeCliLogin(loginCode).then((r) => expect(r.status).toBe("ok"));
        },
      });
      expect(prompted[0]).toMatch(/^https:\/\/app\.example\.com\/handler\/cli-auth-confirm\?login_code=[0-9a-z]+$/);
      expect(waits.every((w) => w === 2000)).toBe(true);
      if (result.status !== "ok") throw result.error;
      const fromCli = await clientWithTokens(target, { accessToken: null, refreshToken: result.data }).getUser({ or: "throw" });
      expect(fromCli.id).toBe(browser.userId);
    });

    it("gives up after maxAttempts with 'Timed out waiting for CLI authentication.'", async () => {
      const waits: number[] = [];
      const cli = clientApp(getTarget(), { sleep: async (ms) => void waits.push(ms) });
      const result = await cli.promptCliLogin({ appUrl: "https://app.example.com", maxAttempts: 2, waitTimeMillis: 5, promptLink: () => {} });
      expect(result.status === "error" && [result.error.code, result.error.message]).toEqual(["CLI_AUTH_ERROR", "Timed out waiting for CLI authentication."]);
      expect(waits).toEqual([5, 5]);
    });

    it("refuses to complete an unknown login code with CLI_AUTH_ERROR", async () => {
      const { app } = await signedUpClient(getTarget());
      const result = await app.completeCliLogin("not-a-login-code");
      expect(result.status === "error" && result.error.code).toBe("CLI_AUTH_ERROR");
    });

    it("answers INVALID_POLLING_CODE for a polling code the provider never issued", async () => {
      const target = getTarget();
      const response = await target.fetch(`${target.baseUrl}/api/v1/auth/cli/poll`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-stack-access-type": "client", "x-stack-project-id": target.projectId, "x-stack-publishable-client-key": target.publishableClientKey },
        body: JSON.stringify({ polling_code: "never-issued" }),
      });
      expect(response.status).toBe(400);
      expect(response.headers.get("x-stack-known-error")).toBe("INVALID_POLLING_CODE");
      expect(((await response.json()) as { code: string }).code).toBe("INVALID_POLLING_CODE");
    });
  });
}

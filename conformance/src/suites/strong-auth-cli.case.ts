import { describe, expect, it } from "vitest";
import { callerHeaders } from "@authsim/sdk/contract";
import type { Target } from "../targets.ts";
import { clientApp, clientWithTokens, itIf, needs, sharedClock, signedUpClient } from "./support.ts";

/** The messages spec §8 "CLI auth" fixes for these codes (the catalogue leaves them to the thrower). */
const EXPIRED_MESSAGE = "CLI authentication request expired. Please try again.";
const USED_MESSAGE = "This authentication token has already been used.";
/** What the browser's completion of a code that is not pending (unknown, expired, done) is told (a plain 400 on the wire). */
const NOT_PENDING_MESSAGE = "Invalid login code or the code has expired";

/** POST /auth/cli/poll as a client would send it. */
function pollRequest(target: Target, pollingCode: string): Promise<Response> {
  return target.fetch(`${target.baseUrl}/api/v1/auth/cli/poll`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      ...callerHeaders({
        accessType: "client",
        projectId: target.projectId,
        publishableClientKey: target.publishableClientKey,
      }),
    },
    body: JSON.stringify({ polling_code: pollingCode }),
  });
}

/** The target's fetch, noting the polling code the provider hands the SDK's CLI at POST /auth/cli. */
function pollingCodeSpy(target: Target): { fetch: typeof fetch; pollingCode(): string } {
  let pollingCode: string | null = null;
  const spied: typeof fetch = async (input, init) => {
    const response = await target.fetch(input, init);
    const url = new URL(input instanceof Request ? input.url : String(input));
    if (url.pathname.endsWith("/auth/cli") && response.ok)
      pollingCode = ((await response.clone().json()) as { polling_code: string }).polling_code;
    return response;
  };
  return {
    fetch: spied,
    pollingCode: () => {
      if (pollingCode === null) throw new Error("The CLI has not started a login yet.");
      return pollingCode;
    },
  };
}

/** Command-line login through our SDK (protocol.md §7.7; spec §4, §8 "CLI auth", §9: 2000 ms waits, unlimited tries). */
export function cliCases(getTarget: () => Target): void {
  const withSharedClock = itIf(needs.sharedClock(getTarget()));

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
      const fromCli = await clientWithTokens(target, { accessToken: null, refreshToken: result.data }).getUser({
        or: "throw",
      });
      expect(fromCli.id).toBe(browser.userId);
    });

    it("gives up after maxAttempts with 'Timed out waiting for CLI authentication.'", async () => {
      const waits: number[] = [];
      const cli = clientApp(getTarget(), { sleep: async (ms) => void waits.push(ms) });
      const result = await cli.promptCliLogin({
        appUrl: "https://app.example.com",
        maxAttempts: 2,
        waitTimeMillis: 5,
        promptLink: () => {},
      });
      expect(result.status === "error" && [result.error.code, result.error.message]).toEqual([
        "CLI_AUTH_ERROR",
        "Timed out waiting for CLI authentication.",
      ]);
      expect(waits).toEqual([5, 5]);
    });

    withSharedClock(
      "stops polling at the expired state with CLI_AUTH_EXPIRED_ERROR; the browser is told the code is no longer valid",
      async () => {
        const target = getTarget();
        const clock = await sharedClock(target);
        const browser = await signedUpClient(target, { clock });
        let loginCode: string | null = null;
        // The minute the attempt lives passes on the provider's clock while the CLI waits between its polls.
        const cli = clientApp(target, { clock, sleep: () => clock.advance(60_000) });
        const result = await cli.promptCliLogin({
          appUrl: "https://app.example.com",
          expiresInMillis: 60_000,
          maxAttempts: 3,
          promptLink: (_url, code) => void (loginCode = code),
        });
        expect(result.status === "error" && [result.error.code, result.error.status, result.error.message]).toEqual([
          "CLI_AUTH_EXPIRED_ERROR",
          400,
          EXPIRED_MESSAGE,
        ]);
        const late = await browser.app.completeCliLogin(loginCode!);
        expect(late.status === "error" && [late.error.code, late.error.message]).toEqual([
          "CLI_AUTH_ERROR",
          NOT_PENDING_MESSAGE,
        ]);
      },
    );

    it("stops polling at the used state with CLI_AUTH_USED_ERROR once another poller took the session, and completes only once", async () => {
      const target = getTarget();
      const browser = await signedUpClient(target);
      const spy = pollingCodeSpy(target);
      let loginCode: string | null = null;
      const cli = clientApp(target, {
        fetch: spy.fetch,
        // While the CLI waits, the browser confirms and a second copy of the CLI holding the same polling code (the SDK
        // has no call that polls a given code) takes the session first.
        sleep: async () => {
          expect(await browser.app.completeCliLogin(loginCode!)).toEqual({ status: "ok", data: undefined });
          const taken = await pollRequest(target, spy.pollingCode());
          expect(taken.status).toBe(201);
        },
      });
      const result = await cli.promptCliLogin({
        appUrl: "https://app.example.com",
        maxAttempts: 3,
        promptLink: (_url, code) => void (loginCode = code),
      });
      expect(result.status === "error" && [result.error.code, result.error.status, result.error.message]).toEqual([
        "CLI_AUTH_USED_ERROR",
        400,
        USED_MESSAGE,
      ]);
      const again = await browser.app.completeCliLogin(loginCode!);
      expect(again.status === "error" && [again.error.code, again.error.message]).toEqual([
        "CLI_AUTH_ERROR",
        NOT_PENDING_MESSAGE,
      ]);
    });

    it("refuses to complete an unknown login code with CLI_AUTH_ERROR", async () => {
      const { app } = await signedUpClient(getTarget());
      const result = await app.completeCliLogin("not-a-login-code");
      expect(result.status === "error" && [result.error.code, result.error.message]).toEqual([
        "CLI_AUTH_ERROR",
        NOT_PENDING_MESSAGE,
      ]);
    });

    it("answers INVALID_POLLING_CODE for a polling code the provider never issued", async () => {
      const response = await pollRequest(getTarget(), "never-issued");
      expect(response.status).toBe(400);
      expect(response.headers.get("x-stack-known-error")).toBe("INVALID_POLLING_CODE");
      expect(((await response.json()) as { code: string }).code).toBe("INVALID_POLLING_CODE");
    });
  });
}

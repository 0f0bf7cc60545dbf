import { describe, expect, it } from "vitest";
import {
  anonymousSignUp,
  api,
  client,
  expectJson,
  expectKnownError,
  newProvider,
  signUp,
  type TestProvider,
} from "../../../test-support/api.ts";

/** Command-line login (protocol.md §7.7; spec §4 "Command-line login polling", §8 "CLI auth"). */

interface Started {
  polling_code: string;
  login_code: string;
  expires_at: string;
}

const start = async (provider: TestProvider, body: unknown = {}) =>
  expectJson<Started>(await api(provider, "/auth/cli", { headers: client(), json: body }));
const poll = (provider: TestProvider, polling_code: string) =>
  api(provider, "/auth/cli/poll", { headers: client(), json: { polling_code } });
const complete = (provider: TestProvider, body: unknown) =>
  api(provider, "/auth/cli/complete", { headers: client(), json: body });

describe("CLI login", () => {
  it("waits, then hands the browser's refresh token over once with 201, then says used", async () => {
    const provider = newProvider();
    const started = await start(provider);
    expect(started.expires_at).toBe(new Date(provider.clock.now() + 2 * 60 * 60 * 1000).toISOString());
    expect(await expectJson(await poll(provider, started.polling_code))).toEqual({ status: "waiting" });
    const browser = await signUp(provider);
    expect(
      await expectJson(
        await complete(provider, { login_code: started.login_code, refresh_token: browser.refresh_token }),
      ),
    ).toEqual({ success: true });
    expect(await expectJson(await poll(provider, started.polling_code), 201)).toEqual({
      status: "success",
      refresh_token: browser.refresh_token,
    });
    expect(await expectJson(await poll(provider, started.polling_code))).toEqual({ status: "used" });
    // A second completion is told only that the code is no longer pending (upstream's plain 400).
    const again = await complete(provider, { login_code: started.login_code, refresh_token: browser.refresh_token });
    expect([again.status, again.headers.get("x-stack-known-error"), await again.text()]).toEqual([
      400,
      null,
      "Invalid login code or the code has expired",
    ]);
  });

  it("expires by the clock (expires_in_millis): expired to the poller, not pending to the browser", async () => {
    const provider = newProvider();
    const started = await start(provider, { expires_in_millis: 60_000 });
    provider.clock.advance(60_000);
    expect(await expectJson(await poll(provider, started.polling_code))).toEqual({ status: "expired" });
    const browser = await signUp(provider);
    const late = await complete(provider, { login_code: started.login_code, refresh_token: browser.refresh_token });
    expect([late.status, await late.text()]).toEqual([400, "Invalid login code or the code has expired"]);
  });

  it("refuses unknown polling codes with INVALID_POLLING_CODE and unknown login codes with a plain 400", async () => {
    const provider = newProvider();
    await expectKnownError(await poll(provider, "nope"), "INVALID_POLLING_CODE", 400);
    const unknown = await complete(provider, { login_code: "nope", refresh_token: "x" });
    expect([unknown.status, await unknown.text()]).toEqual([400, "Invalid login code or the code has expired"]);
    await expectKnownError(
      await api(provider, "/auth/cli", { headers: client(), json: { expires_in_millis: 25 * 60 * 60 * 1000 } }),
      "SCHEMA_ERROR",
      400,
    );
  });

  it("needs a live refresh token of a full user to complete (plain 400, RESTRICTED_USER_NOT_ALLOWED for an anonymous one)", async () => {
    const provider = newProvider();
    const started = await start(provider);
    const missing = await complete(provider, { login_code: started.login_code });
    expect(missing.status).toBe(400);
    expect(await missing.text()).toBe("refresh_token is required when mode is 'complete'");
    const invalid = await complete(provider, { login_code: started.login_code, refresh_token: "not-a-token" });
    expect(await invalid.text()).toBe("Invalid refresh token");
    const anonymous = await anonymousSignUp(provider);
    await expectKnownError(
      await complete(provider, { login_code: started.login_code, refresh_token: anonymous.refresh_token }),
      "RESTRICTED_USER_NOT_ALLOWED",
      403,
    );
  });

  it("lets the browser check for and claim the CLI's anonymous session", async () => {
    const provider = newProvider();
    const anonymous = await anonymousSignUp(provider);
    const started = await start(provider, { anon_refresh_token: anonymous.refresh_token });
    expect(await expectJson(await complete(provider, { login_code: started.login_code, mode: "check" }))).toEqual({
      cli_session_state: "anonymous",
    });
    const claimed = await expectJson<{ refresh_token: string }>(
      await complete(provider, { login_code: started.login_code, mode: "claim-anon-session" }),
    );
    expect(claimed.refresh_token).toBe(anonymous.refresh_token);
    expect(await expectJson(await complete(provider, { login_code: started.login_code, mode: "check" }))).toEqual({
      cli_session_state: "none",
    });
    const plain = await start(provider);
    expect((await complete(provider, { login_code: plain.login_code, mode: "claim-anon-session" })).status).toBe(400);
  });
});

import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  api,
  client,
  expectJson,
  expectKnownError,
  freshEmail,
  newProvider,
  PASSWORD,
  type TestProvider,
} from "../../../test-support/api.ts";

/**
 * The bot-challenge fields (contract botChallengeFields) on sign-up and the sign-in code, as the real service's own
 * suite sends them: accepted, judged only by shape (the emulator has no challenge service). OAuth authorize: oauth-authorize.test.ts.
 */

let provider: TestProvider;
beforeEach(() => {
  provider = newProvider();
});
afterEach(() => {
  expect(provider.unexpected).toEqual([]);
});

const CALLBACK = "http://localhost:3000/handler/magic-link-callback";
const challenge = { bot_challenge_token: "mock-turnstile-ok:sign_up_with_credential", bot_challenge_phase: "visible" };

describe("bot-challenge fields", () => {
  it("are accepted on password sign-up", async () => {
    const response = await api(provider, "/auth/password/sign-up", {
      headers: client(),
      json: { email: freshEmail(), password: PASSWORD, ...challenge },
    });
    expect(await expectJson(response)).toHaveProperty("access_token");
  });

  it("are accepted on the sign-in code, the unavailable marker included", async () => {
    const json = { email: freshEmail(), callback_url: CALLBACK, bot_challenge_unavailable: "true" };
    expect(
      await expectJson(await api(provider, "/auth/otp/send-sign-in-code", { headers: client(), json })),
    ).toHaveProperty("nonce");
  });

  it("are refused with SCHEMA_ERROR when their shape is wrong", async () => {
    const response = await api(provider, "/auth/otp/send-sign-in-code", {
      headers: client(),
      json: { email: freshEmail(), callback_url: CALLBACK, bot_challenge_unavailable: "yes" },
    });
    expect((await expectKnownError(response, "SCHEMA_ERROR", 400)).error).toContain("body.bot_challenge_unavailable");
  });
});

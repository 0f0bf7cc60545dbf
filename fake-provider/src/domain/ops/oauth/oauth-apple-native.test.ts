import { describe, expect, it } from "vitest";
import { api, client, expectKnownError, newProvider, type TestProvider } from "../../../test-support/api.ts";
import { updatedProject } from "../../../test-support/admin.ts";

/** Native Sign in with Apple (domain/ops/oauth/oauth-apple-native.ts): the project's configuration is judged before the token. */

const nativeSignIn = (provider: TestProvider, body: unknown) =>
  api(provider, "/auth/oauth/callback/apple/native", { headers: client(), json: body });
const apple = (extra: Record<string, unknown> = {}) => ({
  id: "apple",
  type: "standard",
  client_id: "com.example.web",
  client_secret: "s",
  ...extra,
});

describe("native Apple sign-in", () => {
  it("needs the apple provider enabled, then at least one Bundle ID", async () => {
    const provider = newProvider();
    await expectKnownError(
      await nativeSignIn(provider, { id_token: "t" }),
      "OAUTH_PROVIDER_NOT_FOUND_OR_NOT_ENABLED",
      400,
    );
    await updatedProject(provider, { config: { oauth_providers: [apple()] } });
    const noBundle = await expectKnownError(
      await nativeSignIn(provider, { id_token: "t" }),
      "APPLE_BUNDLE_ID_NOT_CONFIGURED",
      400,
    );
    expect(noBundle.error).toMatch(/^Apple Sign In is enabled, but no Bundle IDs are configured\./);
  });

  it("refuses a token it cannot verify with Apple's keys, and a body without one", async () => {
    const provider = newProvider();
    await updatedProject(provider, { config: { oauth_providers: [apple({ apple_bundle_ids: ["com.example.ios"] })] } });
    await expectKnownError(await nativeSignIn(provider, { id_token: "not-a-jwt" }), "INVALID_APPLE_CREDENTIALS", 400);
    await expectKnownError(await nativeSignIn(provider, {}), "SCHEMA_ERROR", 400);
    // Nobody was signed up.
    expect([...provider.store.read.oauthAccounts.values()].filter((a) => a.providerConfigId === "apple")).toEqual([]);
  });
});

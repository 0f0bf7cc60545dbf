import { describe, expect, it } from "vitest";
import { replaceSentinels, sentinelValues } from "./sentinels.ts";

describe("the real dashboard's build-time sentinels", () => {
  const values = sentinelValues({
    apiUrl: "http://localhost:31602",
    port: 31601,
    portPrefix: "316",
    publishableClientKey: "pck",
  });

  it("writes each known setting in place, inside quoted code as the built chunks hold them", () => {
    const chunk = `a="STACK_ENV_VAR_SENTINEL_NEXT_PUBLIC_STACK_API_URL",b='STACK_ENV_VAR_SENTINEL_USE_INLINE_ENV_VARS'`;
    expect(replaceSentinels(chunk, values)).toBe(`a="http://localhost:31602",b='true'`);
  });

  it("leaves a sentinel it has no value for, so the dashboard reads it as unset", () => {
    const chunk = `x="STACK_ENV_VAR_SENTINEL_NEXT_PUBLIC_SENTRY_DSN"`;
    expect(replaceSentinels(chunk, values)).toBe(chunk);
  });

  it("names the dashboard's own URL, the internal project and the Svix API under authsim's origin", () => {
    expect(values).toMatchObject({
      NEXT_PUBLIC_STACK_DASHBOARD_URL: "http://localhost:31601",
      NEXT_PUBLIC_STACK_PROJECT_ID: "internal",
      NEXT_PUBLIC_STACK_PUBLISHABLE_CLIENT_KEY: "pck",
      NEXT_PUBLIC_STACK_SVIX_SERVER_URL: "http://localhost:31602/__svix",
    });
  });

  it("gives the payments pages a Stripe test key, which they need once a project has a payments account", () => {
    expect(values.NEXT_PUBLIC_STACK_STRIPE_PUBLISHABLE_KEY).toMatch(/^pk_test_/);
  });

  it("does not read names from the object's prototype", () => {
    expect(replaceSentinels("STACK_ENV_VAR_SENTINEL_CONSTRUCTOR", {})).toBe("STACK_ENV_VAR_SENTINEL_CONSTRUCTOR");
  });
});

// @vitest-environment happy-dom
import { setupServer } from "msw/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { devProjectSeed as dev } from "@authsim/fixtures";
import { StackClientApp } from "@authsim/sdk";
import { fakeProviderHandlers } from "./handlers.ts";

/**
 * The same handlers in a simulated DOM (happy-dom), as a component test would run: the SDK keeps its tokens in the
 * page's cookies and computes its email-verification callback from the page's origin.
 */
const BASE_URL = "https://api.stack-auth.test";
const handlers = fakeProviderHandlers({ baseUrl: BASE_URL });
const server = setupServer(...handlers);

beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterAll(() => server.close());

describe("fakeProviderHandlers in happy-dom", () => {
  it("signs up with cookie-stored tokens and a verification link on the page's origin", async () => {
    expect(typeof document).toBe("object");
    const app = new StackClientApp({
      baseUrl: BASE_URL,
      projectId: dev.id,
      publishableClientKey: dev.keys.publishable_client_key,
      tokenStore: "cookie",
    });
    expect(
      await app.signUpWithCredential({ email: "ada@example.com", password: "correct horse battery", noRedirect: true }),
    ).toEqual({ status: "ok", data: undefined });
    expect(document.cookie).toContain("stack-refresh-");
    expect((await app.getUser())?.primaryEmail).toBe("ada@example.com");
    const mail = handlers.provider.outbox.latest({ to: "ada@example.com", kind: "email_verification" });
    expect(mail?.link).toMatch(new RegExp(`^${location.origin}/handler/email-verification\\?code=`));
  });
});

import { afterEach, describe, expect, it } from "vitest";
import { recordingSleep } from "../test-support/fake-fetch.ts";
import { createRedirector } from "./redirect.ts";
import { resolveHandlerUrls } from "./urls.ts";

const g = globalThis as { window?: unknown };

describe("redirects", () => {
  afterEach(() => {
    delete g.window;
  });

  it("navigates the window and pauses 2 s (spec §2)", async () => {
    const assigned: string[] = [];
    g.window = { location: { assign: (u: string) => void assigned.push(u), origin: "https://app.example.com" } };
    const rec = recordingSleep();
    const r = createRedirector(undefined, rec.sleep);
    expect(r.method).toBe("window");
    await r.redirectTo("/handler/sign-in");
    expect(assigned).toEqual(["/handler/sign-in"]);
    expect(rec.waits).toEqual([2000]);
    expect(r.absolute("/handler/email-verification")).toBe("https://app.example.com/handler/email-verification");
  });

  it('defaults to "none" without a window and never navigates after sign-in or sign-out', async () => {
    const r = createRedirector(undefined, recordingSleep().sleep);
    expect(r.method).toBe("none");
    await expect(r.redirectIfPossible("/")).resolves.toBeUndefined();
    expect(r.absolute("/x")).toBeNull();
  });
});

describe("handler URLs", () => {
  it("default under /handler, with after-* targets defaulting to home", () => {
    expect(resolveHandlerUrls()).toEqual({
      handler: "/handler",
      signIn: "/handler/sign-in",
      signUp: "/handler/sign-up",
      signOut: "/handler/sign-out",
      emailVerification: "/handler/email-verification",
      passwordReset: "/handler/password-reset",
      magicLinkCallback: "/handler/magic-link-callback",
      teamInvitation: "/handler/team-invitation",
      oauthCallback: "/handler/oauth-callback",
      mfa: "/handler/mfa",
      error: "/handler/error",
      cliAuthConfirm: "/handler/cli-auth-confirm",
      home: "/",
      afterSignIn: "/",
      afterSignUp: "/",
      afterSignOut: "/",
    });
    expect(resolveHandlerUrls({ handler: "/auth/", home: "/app", afterSignIn: "/dash" })).toMatchObject({
      signIn: "/auth/sign-in",
      afterSignIn: "/dash",
      afterSignUp: "/dash",
      afterSignOut: "/app",
    });
  });
});

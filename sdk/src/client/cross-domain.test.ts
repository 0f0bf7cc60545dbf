import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { crossDomainHandoff } from "./cross-domain.ts";

const hosted = "http://p1.localhost:8102/handler/sign-in";
const challenge = "a".repeat(43);

/** The return address the published kit builds for its hosted sign-in (redirect-page-urls.js). */
function appCallback(prefix: "hexclave" | "stack", extra: Record<string, string> = {}): string {
  const url = new URL("http://127.0.0.1:5173/handler/oauth-callback");
  url.searchParams.set(`${prefix}_cross_domain_auth`, "1");
  url.searchParams.set(`${prefix}_cross_domain_state`, "st");
  url.searchParams.set(`${prefix}_cross_domain_code_challenge`, challenge);
  url.searchParams.set(`${prefix}_cross_domain_after_callback_redirect_url`, "http://127.0.0.1:5173/protected");
  for (const [k, v] of Object.entries(extra)) url.searchParams.set(k, v);
  return url.href;
}

describe("crossDomainHandoff", () => {
  it.each(["hexclave", "stack"] as const)("reads the %s_ parameters of the app's return address", (prefix) => {
    const target = appCallback(prefix);
    expect(crossDomainHandoff(target, new URL(hosted))).toEqual({
      redirectUri: target,
      state: "st",
      codeChallenge: challenge,
      afterCallbackRedirectUrl: "http://127.0.0.1:5173/protected",
    });
  });

  it("prefers the page's own parameters, and falls back to the page itself as where to go afterwards", () => {
    const page = new URL(hosted);
    page.searchParams.set("hexclave_cross_domain_state", "from-page");
    page.searchParams.set("hexclave_cross_domain_code_challenge", "b".repeat(43));
    const target = "http://127.0.0.1:5173/handler/oauth-callback?hexclave_cross_domain_auth=1";
    expect(crossDomainHandoff(target, page)).toEqual({
      redirectUri: target,
      state: "from-page",
      codeChallenge: "b".repeat(43),
      afterCallbackRedirectUrl: page.href,
    });
  });

  it("is no hand-off on the page's own origin, without state or challenge, or for a non-web scheme", () => {
    const page = new URL(hosted);
    expect(
      crossDomainHandoff(`/app?hexclave_cross_domain_state=s&hexclave_cross_domain_code_challenge=${challenge}`, page),
    ).toBeNull();
    expect(
      crossDomainHandoff("http://127.0.0.1:5173/handler/oauth-callback?hexclave_cross_domain_state=s", page),
    ).toBeNull();
    expect(
      crossDomainHandoff(
        `javascript:alert(1)//?hexclave_cross_domain_state=s&hexclave_cross_domain_code_challenge=${challenge}`,
        page,
      ),
    ).toBeNull();
    expect(crossDomainHandoff("http://[bad", page)).toBeNull();
  });

  it("never throws, and a hand-off always leaves the page's origin with the state it read", () => {
    fc.assert(
      fc.property(fc.string(), fc.webUrl(), fc.option(fc.string({ minLength: 1 })), (junk, other, state) => {
        const target = new URL(other);
        if (state !== null) target.searchParams.set("hexclave_cross_domain_state", state);
        target.searchParams.set("hexclave_cross_domain_code_challenge", challenge);
        target.searchParams.set("hexclave_cross_domain_after_callback_redirect_url", junk);
        const handoff = crossDomainHandoff(target.href, new URL(hosted));
        if (handoff === null) return state === null || target.origin === new URL(hosted).origin;
        return new URL(handoff.redirectUri).origin !== new URL(hosted).origin && handoff.state === state;
      }),
      // Generating web URLs is slow; a hundred cases cost seconds for no more coverage than this.
      { numRuns: 30 },
    );
  });
});

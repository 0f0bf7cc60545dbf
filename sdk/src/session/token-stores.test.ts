import { describe, expect, it } from "vitest";
import { cookieTokenStore, type CookieDocument } from "./cookie-store.ts";
import { tokensFromRequest } from "./request-token-store.ts";
import { resolveTokenStore } from "./resolve-store.ts";
import { memoryTokenStore } from "./token-store.ts";

/** A document.cookie with browser semantics: writes set or delete one cookie, reads list them all. */
function fakeDocument(protocol = "https:"): CookieDocument & { writes: string[] } {
  const jar = new Map<string, string>();
  const writes: string[] = [];
  return {
    writes,
    location: { protocol },
    get cookie() {
      return [...jar].map(([k, v]) => `${k}=${v}`).join("; ");
    },
    set cookie(line: string) {
      writes.push(line);
      const [pair] = line.split(";");
      const eq = pair!.indexOf("=");
      const name = pair!.slice(0, eq);
      if (/max-age=0(;|$)/.test(line)) jar.delete(name);
      else jar.set(name, pair!.slice(eq + 1));
    },
  };
}

describe("cookie token store", () => {
  it("uses stack-access and stack-refresh-<projectId> with the lifetimes of spec §9", () => {
    const doc = fakeDocument();
    const store = cookieTokenStore("proj-1", doc);
    store.set({ accessToken: "a.b.c", refreshToken: "r t" });
    expect(doc.writes).toEqual([
      "stack-access=a.b.c; path=/; max-age=86400; samesite=lax; secure",
      "stack-refresh-proj-1=r%20t; path=/; max-age=31536000; samesite=lax; secure",
    ]);
    expect(store.get()).toEqual({ accessToken: "a.b.c", refreshToken: "r t" });
    // Another project's refresh cookie is not ours.
    expect(cookieTokenStore("proj-2", doc).get()).toEqual({ accessToken: "a.b.c", refreshToken: null });
  });

  it("deletes cookies when tokens are cleared, and omits secure on http", () => {
    const doc = fakeDocument("http:");
    const store = cookieTokenStore("p", doc);
    store.set({ accessToken: "a", refreshToken: "r" });
    store.set({ accessToken: null, refreshToken: null });
    expect(doc.writes.at(-1)).toBe("stack-refresh-p=; path=/; max-age=0; samesite=lax");
    expect(store.get()).toEqual({ accessToken: null, refreshToken: null });
  });

  it('reads a cookie holding "undefined" as no token', () => {
    const doc = fakeDocument();
    doc.cookie = "stack-access=undefined; path=/";
    expect(cookieTokenStore("p", doc).get().accessToken).toBeNull();
  });

  it("needs a document", () => {
    expect(() => cookieTokenStore("p")).toThrow(/needs a browser document/);
  });
});

describe("resolveTokenStore", () => {
  it("resolves each init form", () => {
    expect(resolveTokenStore(null, "p")).toBeNull();
    const mem = resolveTokenStore("memory", "p")!;
    mem.set({ accessToken: null, refreshToken: "r" });
    expect(mem.get().refreshToken).toBe("r");
    expect(resolveTokenStore({ accessToken: "a", refreshToken: "r" }, "p")!.get()).toEqual({
      accessToken: "a",
      refreshToken: "r",
    });
    const custom = memoryTokenStore({ refreshToken: "c" });
    expect(resolveTokenStore(custom, "p")).toBe(custom);
    expect(resolveTokenStore({ headers: { "x-stack-refresh-token": "hr" } }, "p")!.get().refreshToken).toBe("hr");
  });
});

describe("tokensFromRequest", () => {
  it("reads x-stack and x-hexclave token headers", () => {
    expect(
      tokensFromRequest({ headers: new Headers({ "x-stack-access-token": "a", "x-hexclave-refresh-token": "r" }) }),
    ).toEqual({ accessToken: "a", refreshToken: "r" });
  });

  it("reads Authorization: Bearer <jwt> and Bearer stackauth_<base64 auth json>", () => {
    expect(tokensFromRequest({ headers: { Authorization: "Bearer eyJ.x.y" } })).toEqual({
      accessToken: "eyJ.x.y",
      refreshToken: null,
    });
    const b64 = Buffer.from(JSON.stringify({ accessToken: "a", refreshToken: "r" })).toString("base64");
    expect(tokensFromRequest({ headers: { authorization: `Bearer stackauth_${b64}` } })).toEqual({
      accessToken: "a",
      refreshToken: "r",
    });
  });

  it("reads the x-stack-auth JSON header", () => {
    expect(
      tokensFromRequest({ headers: { "x-stack-auth": JSON.stringify({ accessToken: "a", refreshToken: null }) } }),
    ).toEqual({ accessToken: "a", refreshToken: null });
  });
});

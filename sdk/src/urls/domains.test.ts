import { describe, expect, it } from "vitest";
import fc from "fast-check";
import {
  LOCALHOST_IN_PRODUCTION_MESSAGE,
  isLocalhost,
  isTrustedRedirectUrl,
  isValidHostPattern,
  matchesHostPattern,
  productionModeErrors,
} from "./domains.ts";

/** A character-by-character reading of spec §5's pattern rule, deliberately naive. */
function referencePatternOk(p: string): boolean {
  if (p === "") return false;
  if (p[0] === "." || p[p.length - 1] === ".") return false;
  for (let i = 0; i < p.length; i++) {
    const c = p[i]!;
    if (c === "." && p[i + 1] === ".") return false;
    const ok =
      (c >= "a" && c <= "z") || (c >= "A" && c <= "Z") || (c >= "0" && c <= "9") || c === "." || c === "-" || c === "*";
    if (!ok) return false;
  }
  return true;
}

/** Backtracking matcher: `**` any characters, `*` any characters but a dot. */
function referenceMatch(host: string, pattern: string): boolean {
  if (pattern === "") return host === "";
  if (pattern.startsWith("**"))
    return [...Array(host.length + 1).keys()].some((i) => referenceMatch(host.slice(i), pattern.slice(2)));
  if (pattern.startsWith("*")) {
    for (let i = 0; i <= host.length; i++) {
      if (referenceMatch(host.slice(i), pattern.slice(1))) return true;
      if (host[i] === ".") break;
    }
    return false;
  }
  return host !== "" && host[0] === pattern[0] && referenceMatch(host.slice(1), pattern.slice(1));
}

const label = fc.stringMatching(/^[a-z0-9](?:[a-z0-9-]{0,6}[a-z0-9])?$/);
const hostname = fc.array(label, { minLength: 1, maxLength: 4 }).map((ls) => ls.join("."));
const patternChars = fc.constantFrom(..."abcz09.-*A_/ :é".split(""));

describe("host patterns (spec §5)", () => {
  it("accepts exactly what the reference rule accepts", () => {
    fc.assert(
      fc.property(
        fc.array(patternChars, { maxLength: 12 }).map((cs) => cs.join("")),
        (p) => isValidHostPattern(p) === referencePatternOk(p),
      ),
      { numRuns: 2000 },
    );
  });

  it("matches wildcards like the reference matcher", () => {
    const patternLabel = fc.oneof(
      label,
      fc.constant("*"),
      fc.constant("**"),
      label.map((l) => `${l}*`),
      label.map((l) => `*${l}`),
    );
    const pattern = fc.array(patternLabel, { minLength: 1, maxLength: 4 }).map((ls) => ls.join("."));
    fc.assert(
      fc.property(hostname, pattern, (h, p) => matchesHostPattern(h, p) === referenceMatch(h, p)),
      { numRuns: 2000 },
    );
  });

  it("lets * stand for one label and ** for several", () => {
    expect(matchesHostPattern("app.example.com", "*.example.com")).toBe(true);
    expect(matchesHostPattern("a.b.example.com", "*.example.com")).toBe(false);
    expect(matchesHostPattern("a.b.example.com", "**.example.com")).toBe(true);
    expect(matchesHostPattern("APP.Example.com", "app.example.COM")).toBe(true);
    expect(matchesHostPattern("example.com", "*.example.com")).toBe(false);
  });

  it("rejects leading or trailing dots and '..'", () => {
    for (const bad of [".example.com", "example.com.", "a..b", "", "exa_mple.com", "ex ample.com"])
      expect(isValidHostPattern(bad)).toBe(false);
  });
});

describe("localhost detection (spec §5)", () => {
  it("covers localhost, *.localhost and 127.x.x.x", () => {
    const octet = fc.integer({ min: 0, max: 255 });
    fc.assert(fc.property(octet, octet, octet, (a, b, c) => isLocalhost(`127.${a}.${b}.${c}`)));
    fc.assert(fc.property(hostname, (h) => isLocalhost(`${h}.localhost`)));
    expect(isLocalhost("localhost")).toBe(true);
    expect(isLocalhost("LOCALHOST")).toBe(true);
  });

  it("does not treat other hosts as localhost", () => {
    fc.assert(
      fc.property(
        hostname.filter((h) => h !== "localhost" && !h.endsWith(".localhost") && !h.startsWith("127.")),
        (h) => !isLocalhost(h),
      ),
    );
    for (const host of ["128.0.0.1", "127.0.0", "127.0.0.256", "localhost.example.com", "mylocalhost", "10.0.0.1"])
      expect(isLocalhost(host)).toBe(false);
  });
});

describe("trusted redirect URLs", () => {
  const config = {
    allowLocalhost: false,
    domains: [{ domain: "https://*.example.com", handler_path: "/handler" }, { domain: "https://app.test:8443/base" }],
  };

  it("accepts URLs on a trusted domain, with the same protocol and port, under its path", () => {
    expect(isTrustedRedirectUrl("https://shop.example.com/handler/sign-in?x=1", config)).toBe(true);
    expect(isTrustedRedirectUrl("https://app.test:8443/base/callback", config)).toBe(true);
    expect(isTrustedRedirectUrl("https://app.test:8443/base", config)).toBe(true);
  });

  it("refuses other hosts, protocols, ports, paths and non-URLs", () => {
    for (const url of [
      "http://shop.example.com/",
      "https://example.com/",
      "https://evil.com/?https://shop.example.com",
      "https://shop.example.com.evil.com/",
      "https://app.test/base/x",
      "https://app.test:8443/basement",
      "javascript:alert(1)",
      "not a url",
    ]) {
      expect(isTrustedRedirectUrl(url, config)).toBe(false);
    }
  });

  it("accepts localhost only when the project allows it", () => {
    expect(isTrustedRedirectUrl("http://localhost:3000/handler", config)).toBe(false);
    expect(isTrustedRedirectUrl("http://localhost:3000/handler", { ...config, allowLocalhost: true })).toBe(true);
    expect(isTrustedRedirectUrl("http://127.0.0.1:3000/", { ...config, allowLocalhost: true })).toBe(true);
  });
});

describe("production-mode checks", () => {
  it("rejects allow-localhost with the exact message of spec §5", () => {
    expect(productionModeErrors({ allowLocalhost: true, domains: [] }).map((e) => e.message)).toEqual([
      LOCALHOST_IN_PRODUCTION_MESSAGE,
    ]);
    expect(LOCALHOST_IN_PRODUCTION_MESSAGE).toBe(
      "Localhost is not allowed in production mode, turn off Allow localhost in project settings",
    );
  });

  it("flags invalid URLs, localhost, pure-IP and non-HTTPS domains", () => {
    const messages = productionModeErrors({
      allowLocalhost: false,
      domains: [
        { domain: "not a url" },
        { domain: "https://app.localhost" },
        { domain: "https://10.1.2.3" },
        { domain: "http://plain.example.com" },
        { domain: "https://ok.example.com" },
      ],
    }).map((e) => e.message);
    expect(messages).toHaveLength(4);
    expect(messages[0]).toContain("not a valid URL");
    expect(messages[1]).toContain("localhost");
    expect(messages[2]).toContain("IP address");
    expect(messages[3]).toContain("HTTPS");
  });
});

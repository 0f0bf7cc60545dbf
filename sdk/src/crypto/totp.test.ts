import { describe, expect, it } from "vitest";
import { manualClock } from "../runtime/clock.ts";
import { seededRandom } from "../runtime/ids.ts";
import { memoryTokenStore } from "../session/token-store.ts";
import { StackClientApp } from "../client/client-app.ts";
import { base32Encode, otpauthUri, totpCode, verifyTotpCode } from "./totp.ts";

/** TOTP for MFA setup against the RFCs' own test vectors, and the app's setup helper (clock and random injected). */

const RFC_SECRET = new TextEncoder().encode("12345678901234567890");

describe("RFC 4648 base32", () => {
  it.each([
    ["", ""],
    ["f", "MY"],
    ["fo", "MZXQ"],
    ["foo", "MZXW6"],
    ["foob", "MZXW6YQ"],
    ["fooba", "MZXW6YTB"],
    ["foobar", "MZXW6YTBOI"],
  ])("encodes %j as %s (§10 vectors, without padding)", (input, expected) => {
    expect(base32Encode(new TextEncoder().encode(input))).toBe(expected);
  });
});

describe("HOTP and TOTP", () => {
  it("gives RFC 4226 appendix D's HOTP values at the matching time steps", async () => {
    const expected = [
      "755224",
      "287082",
      "359152",
      "969429",
      "338314",
      "254676",
      "287922",
      "162583",
      "399871",
      "520489",
    ];
    expect(await Promise.all(expected.map((_, counter) => totpCode(RFC_SECRET, counter * 30_000)))).toEqual(expected);
  });

  it.each([
    [59_000, "94287082"],
    [1_111_111_109_000, "07081804"],
    [1_111_111_111_000, "14050471"],
    [1_234_567_890_000, "89005924"],
    [2_000_000_000_000, "69279037"],
    [20_000_000_000_000, "65353130"],
  ])("gives RFC 6238 appendix B's SHA-1 value at %i ms", async (time, code) => {
    expect(await totpCode(RFC_SECRET, time, 8)).toBe(code);
  });

  it("accepts the code of the current step and its neighbours, nothing further and nothing malformed", async () => {
    const now = 1_750_000_000_000;
    const at = (offsetSteps: number) => totpCode(RFC_SECRET, now + offsetSteps * 30_000);
    expect(await verifyTotpCode(RFC_SECRET, await at(0), now)).toBe(true);
    expect(await verifyTotpCode(RFC_SECRET, await at(-1), now)).toBe(true);
    expect(await verifyTotpCode(RFC_SECRET, await at(1), now)).toBe(true);
    expect(await verifyTotpCode(RFC_SECRET, await at(3), now)).toBe(false);
    expect(await verifyTotpCode(RFC_SECRET, "12345", now)).toBe(false);
    expect(await verifyTotpCode(RFC_SECRET, "abcdef", now)).toBe(false);
  });

  it("writes the Key Uri Format, spaces as %20", () => {
    const uri = otpauthUri({
      secret: new TextEncoder().encode("foobar"),
      accountName: "ada@example.com",
      issuer: "My App",
    });
    expect(uri.startsWith("otpauth://totp/My%20App:ada%40example.com?")).toBe(true);
    expect(uri).not.toContain("+");
    expect(Object.fromEntries(new URL(uri).searchParams)).toEqual({
      secret: "MZXW6YTBOI",
      issuer: "My App",
      algorithm: "SHA1",
      digits: "6",
      period: "30",
    });
  });
});

describe("StackClientApp.createTotpSetup", () => {
  it("makes a 20-byte secret from the injected random source and verifies codes by the app's clock", async () => {
    const clock = manualClock(1_750_000_000_000);
    const app = (seed: string) =>
      new StackClientApp({
        projectId: "p",
        baseUrl: "http://api.test",
        tokenStore: memoryTokenStore(),
        clock,
        random: seededRandom(seed),
        fetch: () => Promise.reject(new Error("no calls")),
      });
    const setup = app("totp").createTotpSetup({ accountName: "ada@example.com", issuer: "Demo" });
    expect(setup.secret).toHaveLength(20);
    expect(setup.secret).toEqual(app("totp").createTotpSetup({ accountName: "x" }).secret);
    expect(setup.secretBase32).toBe(base32Encode(setup.secret));
    expect(new URL(setup.otpauthUri).searchParams.get("secret")).toBe(setup.secretBase32);
    expect(new URL(setup.otpauthUri).searchParams.get("issuer")).toBe("Demo");
    const code = await totpCode(setup.secret, clock.now());
    expect(await setup.verify(code)).toBe(true);
    clock.advance(5 * 60_000);
    expect(await setup.verify(code)).toBe(false);
  });
});

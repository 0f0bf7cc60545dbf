import { describe, expect, it } from "vitest";
import { seededRandom } from "@authsim/sdk/runtime";
import { accountForEmail, suggestAccount } from "./mock-identities.ts";

describe("the mock identity provider's generated accounts", () => {
  it("gives the same address the same account id and name every time, ignoring case and spaces", () => {
    const a = accountForEmail("github", "Ada.King@example.com ");
    expect(accountForEmail("github", "ada.king@example.com")).toEqual(a);
    expect(a).toMatchObject({ email: "ada.king@example.com", name: "Ada King" });
    expect(accountForEmail("github", "grace@example.com").accountId).not.toBe(a.accountId);
  });

  it("shapes account ids like each provider's own, and differently per provider", () => {
    const email = "mei.tanaka@example.com";
    expect(accountForEmail("github", email).accountId).toMatch(/^[1-9]\d{6,8}$/);
    expect(accountForEmail("google", email).accountId).toMatch(/^1\d{20}$/);
    expect(accountForEmail("microsoft", email).accountId).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/,
    );
    expect(accountForEmail("spotify", email).accountId).toMatch(/^[0-9a-z]{25}$/);
    expect(accountForEmail("mock", email).accountId).toMatch(/^[0-9a-f]{16}$/);
    expect(accountForEmail("google", email).accountId).not.toBe(accountForEmail("github", email).accountId);
  });

  it("names an address without a readable name from its hash (a first and a last name)", () => {
    const { name } = accountForEmail("github", "x9@example.com");
    expect(name).toMatch(/^[A-Z][a-z]+ [A-Z][a-z]+$/);
    expect(accountForEmail("github", "x9@example.com").name).toBe(name);
  });

  it("suggests accounts from the random source (same seed, same suggestions) and avoids addresses already taken", () => {
    const first = suggestAccount(seededRandom("s"), "github", new Set());
    expect(suggestAccount(seededRandom("s"), "github", new Set())).toEqual(first);
    expect(first).toEqual(accountForEmail("github", first.email));
    expect(first.email).toMatch(/^[a-z]+\.[a-z]+@example\.com$/);
    const random = seededRandom("t");
    const taken = new Set<string>();
    for (let i = 0; i < 40; i++) taken.add(suggestAccount(random, "github", taken).email);
    expect(taken.size).toBe(40);
  });
});

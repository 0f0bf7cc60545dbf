import { describe, expect, it } from "vitest";
import { hostCannotResolve } from "./mail-server.ts";

describe("hostCannotResolve", () => {
  it("knows names reserved never to resolve and numeric top-level labels", () => {
    for (const host of [
      "this-host-does-not-exist.invalid",
      "INVALID",
      "mail.example.invalid.",
      "this-is-not-a-valid-host.0.0.0.0",
      "smtp.123",
    ]) {
      expect(hostCannotResolve(host), host).toBe(true);
    }
  });

  it("takes ordinary names and IPv4 addresses to resolve", () => {
    for (const host of ["localhost", "smtp.example.com", "127.0.0.1", "10.0.0.25", "mail.invalid-domain.com", ""]) {
      expect(hostCannotResolve(host), host).toBe(false);
    }
  });
});

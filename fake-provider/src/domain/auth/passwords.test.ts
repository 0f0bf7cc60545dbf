import bcrypt from "bcryptjs";
import { describe, expect, it } from "vitest";
import { seededRandom } from "@authsim/sdk/runtime";
import { hashCosts, hashPassword, verifyPassword } from "./passwords.ts";

describe("password hashes", () => {
  it("are salted PBKDF2 at the fast cost by default, and a wrong password fails", async () => {
    const random = seededRandom("passwords");
    const a = await hashPassword("correct horse battery", random, hashCosts.fast);
    const b = await hashPassword("correct horse battery", random, hashCosts.fast);
    expect(a).toMatch(/^pbkdf2-sha256\$10\$[A-Za-z0-9+/]{22}==\$[A-Za-z0-9+/]{43}=$/);
    expect(a).not.toBe(b); // a new salt each time
    expect(await verifyPassword("correct horse battery", a)).toBe(true);
    expect(await verifyPassword("correct horse batterx", a)).toBe(false);
    expect(await verifyPassword("", a)).toBe(false);
  });

  it("keep their own count: a hash made at another cost still verifies", async () => {
    const older = await hashPassword("correct horse battery", seededRandom("older"), 1_000);
    expect(older.startsWith("pbkdf2-sha256$1000$")).toBe(true);
    expect(await verifyPassword("correct horse battery", older)).toBe(true);
    expect(await verifyPassword("wrong horse battery", older)).toBe(false);
  });

  it("verify an imported bcrypt hash, and match nothing past cost 16", async () => {
    const hash = bcrypt.hashSync("correct horse battery", 4);
    expect(await verifyPassword("correct horse battery", hash)).toBe(true);
    expect(await verifyPassword("correct horse batterx", hash)).toBe(false);
    expect(await verifyPassword("correct horse battery", hash.replace(/^\$2b\$04\$/, "$2b$17$"))).toBe(false);
    expect(await verifyPassword("correct horse battery", hash.slice(0, -1))).toBe(false);
  });
});

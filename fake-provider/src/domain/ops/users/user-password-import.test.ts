import bcrypt from "bcryptjs";
import { describe, expect, it } from "vitest";
import { api, client, expectJson, expectKnownError, newProvider, server } from "../../../test-support/api.ts";

/** POST /users and PATCH /users/{id} with an imported `password_hash` (the real service's rules). */

const BCRYPT_13 = `$2a$13$${"a".repeat(53)}`;

describe("imported password hashes", () => {
  it("refuses a password and a password_hash together with the real plain-text 400", async () => {
    const provider = newProvider();
    const response = await api(provider, "/users", {
      headers: server(),
      json: { primary_email: "both@example.com", password: "password-123", password_hash: BCRYPT_13 },
    });
    expect(response.status).toBe(400);
    expect(await response.text()).toBe("Cannot set both password and password_hash at the same time.");
    expect(provider.store.read.users.size).toBe(0);
  });

  it.each([`$2a$17$${"a".repeat(53)}`, "md5$abc", "$2a$13$short", "plain"])(
    "refuses %s as an unsupported hash",
    async (hash) => {
      const provider = newProvider();
      const response = await api(provider, "/users", {
        headers: server(),
        json: { primary_email: "bad@example.com", password_hash: hash },
      });
      expect(response.status).toBe(400);
      expect(await response.text()).toContain("Modular Crypt Format");
    },
  );

  it("accepts bcrypt up to cost 16, and the emulator's own PBKDF2 hashes (fixture exports), on create and update", async () => {
    const provider = newProvider();
    const created = await expectJson<{ id: string; has_password: boolean }>(
      await api(provider, "/users", {
        headers: server(),
        json: { primary_email: "ok@example.com", password_hash: BCRYPT_13 },
      }),
      201,
    );
    expect(created.has_password).toBe(true);
    const own = "pbkdf2-sha256$1000$AAAAAAAAAAAAAAAAAAAAAA==$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=";
    const updated = await api(provider, `/users/${created.id}`, {
      method: "PATCH",
      headers: server(),
      json: { password_hash: own },
    });
    expect(updated.status).toBe(200);
    const both = await api(provider, `/users/${created.id}`, {
      method: "PATCH",
      headers: server(),
      json: { password: "password-123", password_hash: own },
    });
    expect(both.status).toBe(400);
  });

  it("signs the user in with the password of an imported bcrypt hash ($2a$, $2b$ and $2y$), and not with another", async () => {
    const provider = newProvider();
    const hash = bcrypt.hashSync("hello-world", 4);
    for (const [i, variant] of (["$2a$", "$2b$", "$2y$"] as const).entries()) {
      const email = `bcrypt-${i}@example.com`;
      const imported = variant + hash.slice(4);
      await expectJson(
        await api(provider, "/users", {
          headers: server(),
          json: { primary_email: email, primary_email_auth_enabled: true, password_hash: imported },
        }),
        201,
      );
      expect(
        (await api(provider, "/auth/password/sign-in", { headers: client(), json: { email, password: "hello-world" } }))
          .status,
      ).toBe(200);
      await expectKnownError(
        await api(provider, "/auth/password/sign-in", { headers: client(), json: { email, password: "hello-world!" } }),
        "EMAIL_PASSWORD_MISMATCH",
        400,
      );
    }
  });
});

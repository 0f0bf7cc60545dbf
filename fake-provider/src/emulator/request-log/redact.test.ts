import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { mask, redactQuery, redactText } from "./redact.ts";

/** What the request log keeps of a query, a path or a "why" line: secrets masked, everything else as sent. */

const BASE32 = "0123456789abcdefghjkmnpqrstvwxyz";
const base32 = (length: number) =>
  fc.string({ unit: fc.constantFrom(...BASE32), minLength: length, maxLength: length });
const jwtPart = fc.string({
  unit: fc.constantFrom(..."ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"),
  minLength: 8,
  maxLength: 60,
});
const jwt = fc.tuple(jwtPart, jwtPart, jwtPart).map(([a, b, c]) => `eyJ${a}.${b}.${c}`);
const refreshToken = base32(45);
const apiKey = fc.oneof(
  fc
    .tuple(fc.constantFrom("pk_user_", "sk_user_", "pk_team_", "sk_team_", "pck_", "ssk_", "sak_"), base32(45))
    .map(([p, r]) => p + r),
  // The real format (domain/auth/api-key-format.ts): one run of 99 characters after pk_/sk_.
  fc.tuple(fc.constantFrom("pk_", "sk_"), base32(99)).map(([p, r]) => p + r),
);
const anySecret = fc.oneof(jwt, refreshToken, apiKey);

describe("request log redaction", () => {
  it("masks OAuth's token, client secret, state and code, keeping the last four of long values", () => {
    const token = "eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJ1c2VyIn0.c2lnbmF0dXJlLXZhbHVlLWhlcmU";
    const query = `client_id=p1&client_secret=pck_authsim_dev_0000000000000000000000000000000000000000&state=st8te0000000000000000000abcd&token=${token}&type=link&code_challenge=abc`;
    expect(redactQuery(query)).toBe(
      "client_id=p1&client_secret=[redacted:0000]&state=[redacted:abcd]&token=[redacted:lcmU]&type=link&code_challenge=abc",
    );
    expect(redactQuery("code=Z3x9&state=s")).toBe("code=[redacted]&state=[redacted]");
  });

  it("never shows any character of a password or an OTP, however long", () => {
    expect(redactQuery("password=correct-horse-battery-staple-2026&new_password=x&otp=123456")).toBe(
      "password=[redacted]&new_password=[redacted]&otp=[redacted]",
    );
  });

  it("masks secret-shaped values under any name, inside redirect URLs, in paths and in free text", () => {
    const refresh = "0123456789abcdefghjkmnpqrstvwxyz0123456789abc";
    expect(redactQuery(`query=${refresh}`)).toBe(`query=${encodeURIComponent("[redacted:9abc]")}`);
    const nested = redactQuery(
      `after_callback_redirect_url=${encodeURIComponent("http://localhost:3000/cb?code=secret-code-value-0123456789&tab=2")}`,
    );
    expect(decodeURIComponent(nested)).toBe(
      "after_callback_redirect_url=http://localhost:3000/cb?code=[redacted:6789]&tab=2",
    );
    expect(redactText(`/api/v1/users/${refresh}`)).toBe("/api/v1/users/[redacted:9abc]");
    expect(redactText("x-stack-access-type was 'sk_user_0123456789abcdefghjk'")).toBe(
      "x-stack-access-type was '[redacted:ghjk]'",
    );
  });

  it("leaves ordinary queries, paths and messages exactly as they were", () => {
    const ordinary =
      "team_id=5b0c1f0e-3a7d-4c2b-9e4f-7d1a2b3c4d5e&user_id=me&recursive=false&limit=2&order_by=signed_up_at&query=ada%40example.com&code_challenge_method=S256";
    expect(redactQuery(ordinary)).toBe(ordinary);
    expect(redactText("/api/v1/team-permissions/5b0c1f0e-3a7d-4c2b-9e4f-7d1a2b3c4d5e/me/docs:read")).toBe(
      "/api/v1/team-permissions/5b0c1f0e-3a7d-4c2b-9e4f-7d1a2b3c4d5e/me/docs:read",
    );
    expect(redactText("op passwordSignIn: EMAIL_PASSWORD_MISMATCH — Wrong e-mail or password.")).toBe(
      "op passwordSignIn: EMAIL_PASSWORD_MISMATCH — Wrong e-mail or password.",
    );
    expect(mask("short")).toBe("[redacted]");
  });

  it("no secret survives, whatever it is called and wherever it sits in the query", () => {
    const name = fc.constantFrom(
      "token",
      "refresh_token",
      "client_secret",
      "code",
      "x",
      "query",
      "redirect_uri",
      "api_key",
      "cursor",
    );
    fc.assert(
      fc.property(
        anySecret,
        name,
        fc.array(
          fc.tuple(fc.constantFrom("a", "b", "limit"), fc.string({ unit: fc.constantFrom(..."abc123"), maxLength: 6 })),
          { maxLength: 3 },
        ),
        (secret, key, others) => {
          const pairs = [...others.map(([k, v]) => `${k}=${v}`), `${key}=${encodeURIComponent(secret)}`];
          const redacted = redactQuery(pairs.join("&"));
          expect(redacted).not.toContain(secret);
          expect(decodeURIComponent(redacted)).not.toContain(secret.slice(0, -4));
          expect(redactText(`why: ${secret} and /path/${secret}`)).not.toContain(secret.slice(0, -4));
          // Everything else is left as sent.
          expect(redacted.startsWith(others.map(([k, v]) => `${k}=${v}&`).join(""))).toBe(true);
        },
      ),
      { numRuns: 200 },
    );
  });
});

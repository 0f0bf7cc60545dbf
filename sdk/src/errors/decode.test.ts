import { describe, expect, expectTypeOf, it } from "vitest";
import { actualStatus, decodeKnownError } from "./decode.ts";
import { KnownError, type AnyKnownError, type KnownErrorOf } from "./known-error.ts";
import { catchKnown } from "./result.ts";
import { KnownErrorMismatchError } from "./sdk-errors.ts";

const h = (init: Record<string, string>) => new Headers(init);

describe("decodeKnownError", () => {
  it("returns null when no known-error header is present", () => {
    expect(decodeKnownError(400, h({}), JSON.stringify({ code: "USER_NOT_FOUND" }))).toBeNull();
  });

  it("decodes a known error whose header equals body.code", () => {
    const e = decodeKnownError(
      200,
      h({ "x-stack-known-error": "USER_NOT_FOUND", "x-stack-actual-status": "404" }),
      JSON.stringify({ code: "USER_NOT_FOUND", error: "User not found." }),
    );
    expect(e).toBeInstanceOf(KnownError);
    expect(e?.code).toBe("USER_NOT_FOUND");
    expect(e?.status).toBe(404);
    expect(e?.message).toBe("User not found.");
  });

  it("accepts the rebranded x-hexclave-known-error header", () => {
    const e = decodeKnownError(
      401,
      h({ "x-hexclave-known-error": "ACCESS_TOKEN_EXPIRED" }),
      JSON.stringify({ code: "ACCESS_TOKEN_EXPIRED", details: { expired_at_millis: 5 } }),
    );
    expect(e?.code).toBe("ACCESS_TOKEN_EXPIRED");
    expect(e?.details).toEqual({ expired_at_millis: 5 });
  });

  it("rejects a response whose header and body code disagree", () => {
    expect(() =>
      decodeKnownError(400, h({ "x-stack-known-error": "USER_NOT_FOUND" }), JSON.stringify({ code: "TEAM_NOT_FOUND" })),
    ).toThrow(KnownErrorMismatchError);
    expect(() => decodeKnownError(400, h({ "x-stack-known-error": "USER_NOT_FOUND" }), "not json")).toThrow(/Mismatch/);
  });

  it("rejects when the two header families disagree with each other", () => {
    expect(() =>
      decodeKnownError(
        400,
        h({ "x-stack-known-error": "TEAM_NOT_FOUND", "x-hexclave-known-error": "USER_NOT_FOUND" }),
        JSON.stringify({ code: "USER_NOT_FOUND" }),
      ),
    ).toThrow(KnownErrorMismatchError);
  });

  it("turns an unknown code into UNSUPPORTED_ERROR (500) with details.originalErrorCode", () => {
    const e = decodeKnownError(
      400,
      h({ "x-stack-known-error": "SOMETHING_NEW" }),
      JSON.stringify({ code: "SOMETHING_NEW" }),
    );
    expect(e?.code).toBe("UNSUPPORTED_ERROR");
    expect(e?.status).toBe(500);
    expect(e?.details).toEqual({ originalErrorCode: "SOMETHING_NEW" });
    expect(e?.message).toContain("SOMETHING_NEW");
  });

  it("uses the wire status for abstract codes that have no fixed status", () => {
    const e = decodeKnownError(
      200,
      h({ "x-stack-known-error": "INVALID_ACCESS_TOKEN", "x-stack-actual-status": "401" }),
      JSON.stringify({ code: "INVALID_ACCESS_TOKEN" }),
    );
    expect(e?.status).toBe(401);
  });
});

describe("actualStatus", () => {
  it("rebuilds the real status from x-stack-actual-status", () => {
    expect(actualStatus(200, h({ "x-stack-actual-status": "409" }))).toBe(409);
  });
  it("reads the family it asked with first: x-stack-* for ours, x-hexclave-* when asked so", () => {
    const both = h({ "x-stack-actual-status": "409", "x-hexclave-actual-status": "404" });
    expect(actualStatus(200, both)).toBe(409);
    expect(actualStatus(200, both, "hexclave")).toBe(404);
  });
  it("falls back to the other family when the answer carries only that one", () => {
    expect(actualStatus(200, h({ "x-hexclave-actual-status": "404" }))).toBe(404);
    expect(actualStatus(200, h({ "x-stack-actual-status": "409" }), "hexclave")).toBe(409);
  });
  it("keeps the HTTP status when the header is absent or malformed", () => {
    expect(actualStatus(201, h({}))).toBe(201);
    expect(actualStatus(200, h({ "x-stack-actual-status": "abc" }))).toBe(200);
  });
});

describe("KnownError", () => {
  it("follows the parent chain in isInstance", () => {
    const e = new KnownError("REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED");
    expect(e.isInstance("REFRESH_TOKEN_ERROR")).toBe(true);
    expect(e.isInstance("REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED")).toBe(true);
    expect(e.isInstance("INVALID_ACCESS_TOKEN")).toBe(false);
    expect(new KnownError("PASSWORD_TOO_SHORT", { min_length: 8 }).message).toBe(
      "Password too short. Minimum length is 8.",
    );
  });

  it("types a family as the union of its descendants", () => {
    expectTypeOf<KnownErrorOf<"PASSWORD_REQUIREMENTS_NOT_MET">["code"]>().toEqualTypeOf<
      "PASSWORD_REQUIREMENTS_NOT_MET" | "PASSWORD_TOO_SHORT" | "PASSWORD_TOO_LONG"
    >();
    expectTypeOf<KnownErrorOf<"INVALID_ACCESS_TOKEN">["code"]>().toEqualTypeOf<
      "INVALID_ACCESS_TOKEN" | "UNPARSABLE_ACCESS_TOKEN" | "ACCESS_TOKEN_EXPIRED" | "INVALID_PROJECT_FOR_ACCESS_TOKEN"
    >();
    const e: unknown = new KnownError("PASSWORD_TOO_SHORT", { min_length: 8 });
    if (e instanceof KnownError && e.isInstance("PASSWORD_REQUIREMENTS_NOT_MET")) {
      expectTypeOf(e.code).toEqualTypeOf<
        "PASSWORD_REQUIREMENTS_NOT_MET" | "PASSWORD_TOO_SHORT" | "PASSWORD_TOO_LONG"
      >();
    }
  });

  it("is a union discriminated by code", () => {
    const describe = (e: AnyKnownError): string => {
      switch (e.code) {
        case "PASSWORD_TOO_SHORT":
          return `short:${String(e.details.min_length)}`;
        case "EMAIL_PASSWORD_MISMATCH":
          return "mismatch";
        default:
          return "other";
      }
    };
    expect(describe(new KnownError("PASSWORD_TOO_SHORT", { min_length: 8 }))).toBe("short:8");
    expect(describe(new KnownError("EMAIL_PASSWORD_MISMATCH"))).toBe("mismatch");
  });
});

describe("catchKnown", () => {
  it("returns listed known errors (and descendants) as error results and rethrows the rest", async () => {
    const r = await catchKnown(async () => {
      throw new KnownError("PASSWORD_TOO_LONG", { maxLength: 70 });
    }, ["PASSWORD_REQUIREMENTS_NOT_MET"]);
    expect(r.status).toBe("error");
    if (r.status === "error") expect(r.error.code).toBe("PASSWORD_TOO_LONG");
    await expect(
      catchKnown(async () => {
        throw new KnownError("USER_NOT_FOUND");
      }, ["PASSWORD_REQUIREMENTS_NOT_MET"]),
    ).rejects.toThrow("User not found.");
    expect(await catchKnown(async () => 3, ["USER_NOT_FOUND"])).toEqual({ status: "ok", data: 3 });
  });
});

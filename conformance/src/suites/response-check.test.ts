import { describe, expect, it } from "vitest";
import { headerNames, operationsById } from "@authsim/sdk/contract";
import { checkAnswer, type AnswerSeen } from "./response-check.ts";

/** The checker response-schemas.test.ts relies on: it must catch what a real mismatch looks like. */
const op = (id: string) => operationsById.get(id)!;
const jsonAnswer = (
  body: unknown,
  status = 200,
  accessType: string | null = "server",
  headers: Record<string, string> = {},
): AnswerSeen => ({
  status,
  headers: new Headers({ "content-type": "application/json; charset=utf-8", ...headers }),
  body: JSON.stringify(body),
  accessType,
});
const team = { id: "5d0f2a3b-4c5d-4e6f-8a7b-9c0d1e2f3a4b", display_name: "T", profile_image_url: null };

describe("checkAnswer", () => {
  it("accepts a body the declared schema parses, at a declared status", () => {
    expect(checkAnswer(op("deleteUser"), jsonAnswer({ success: true }))).toEqual({ kind: "matches" });
  });

  it("flags a key the schema does not list, with its path, though zod's parse would drop it silently", () => {
    expect(checkAnswer(op("deleteUser"), jsonAnswer({ success: true, extra: 1 }))).toEqual({
      kind: "problem",
      problem: "200 body has keys the schema does not list: $.extra",
    });
  });

  it("holds each caller to its own view: a client may not receive the server team", () => {
    const serverTeam = { ...team, created_at_millis: 0 };
    expect(checkAnswer(op("getTeam"), jsonAnswer(serverTeam, 200, "server"))).toEqual({ kind: "matches" });
    expect(checkAnswer(op("getTeam"), jsonAnswer(team, 200, "client"))).toEqual({ kind: "matches" });
    expect(checkAnswer(op("getTeam"), jsonAnswer(serverTeam, 200, "client"))).toMatchObject({ kind: "problem" });
  });

  it("flags a success status the contract does not list, and leaves refusals to the catalogue", () => {
    expect(checkAnswer(op("getTeam"), jsonAnswer(team, 201))).toEqual({
      kind: "problem",
      problem: "answered 201, which the contract does not list",
    });
    expect(
      checkAnswer(
        op("getTeam"),
        jsonAnswer({ code: "TEAM_NOT_FOUND" }, 404, "server", { [headerNames.knownError]: "TEAM_NOT_FOUND" }),
      ),
    ).toEqual({ kind: "not-described" });
  });

  it("wants a location on a redirect and plain text where the contract says text", () => {
    const redirect: AnswerSeen = { status: 307, headers: new Headers(), body: "", accessType: null };
    expect(checkAnswer(op("oauthCallbackGet"), redirect)).toEqual({
      kind: "problem",
      problem: "a redirect without location",
    });
    expect(checkAnswer(op("root"), jsonAnswer({}, 200, null))).toMatchObject({ kind: "problem" });
  });
});

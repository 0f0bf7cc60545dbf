import { describe, expect, it } from "vitest";
import { selectAreas, unknownAreasMessage } from "./areas.ts";
import { parseRunnerArgs, usage } from "./args.ts";

const cases = [
  { id: "a_0", area: "password auth" },
  { id: "a_1", area: "password auth" },
  { id: "a_2", area: "MFA after OAuth" },
  { id: "a_3", area: "MFA" },
  { id: "a_4", area: "data vault" },
];

describe("choosing areas (--area)", () => {
  it("picks every case of the named areas by exact name: MFA is not MFA after OAuth", () => {
    expect(selectAreas(cases, ["MFA", "password auth"])).toEqual({
      testIds: ["a_0", "a_1", "a_3"],
      unknown: [],
      known: ["password auth", "MFA after OAuth", "MFA", "data vault"],
    });
  });

  it("names unknown areas and lists the real ones", () => {
    const selection = selectAreas(cases, ["data vault", "vault", "mfa"]);
    expect(selection.unknown).toEqual(["vault", "mfa"]);
    expect(unknownAreasMessage(selection)).toBe(
      'Unknown areas: "vault", "mfa".\n\nAreas:\n  password auth\n  MFA after OAuth\n  MFA\n  data vault',
    );
  });

  it("reads --area as repeatable, every area when absent, and documents it in --help", () => {
    expect(parseRunnerArgs(["--base-url", "http://x"]).areas).toEqual([]);
    expect(
      parseRunnerArgs(["--base-url", "http://x", "--area", "password auth", "--area", "data vault"]).areas,
    ).toEqual(["password auth", "data vault"]);
    expect(() => parseRunnerArgs(["--base-url", "http://x", "--area"])).toThrow(/--area needs a value/);
    expect(() => parseRunnerArgs(["--help"])).toThrow(usage);
    expect(usage).toMatch(/--area NAME .*repeatable/s);
  });
});

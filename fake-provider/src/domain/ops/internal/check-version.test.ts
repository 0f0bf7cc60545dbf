import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { checkVersionResponse } from "@authsim/sdk/contract";
import { api, expectJson, expectKnownError, newProvider, client, server } from "../../../test-support/api.ts";
import { checkVersion, EMULATED_PROVIDER_VERSION, SECURITY_FLOOR_VERSION } from "./check-version.ts";

/**
 * The version check (POST /check-version, upstream's rules; precedence is the `semver` package's). The verdicts are
 * compared with a model written over plain number triples.
 */

describe("the version check", () => {
  const [major, minor, patch] = EMULATED_PROVIDER_VERSION.split(".").map(Number) as [number, number, number];
  const floorPatch = Number(SECURITY_FLOOR_VERSION.split(".")[2]);

  it("answers up to date for the provider's own version and newer patches", () => {
    expect(checkVersion(EMULATED_PROVIDER_VERSION)).toEqual({ upToDate: true });
    expect(checkVersion(`${major}.${minor}.${patch + 1}`)).toEqual({ upToDate: true });
  });

  it("judges releases of the provider's line by the model: floor and other lines severe, older patches not", () => {
    fc.assert(
      fc.property(fc.nat({ max: 4 }), fc.nat({ max: 12 }), fc.nat({ max: 300 }), (ma, mi, pa) => {
        const verdict = checkVersion(`${ma}.${mi}.${pa}`);
        const belowFloor = ma < major || (ma === major && (mi < minor || (mi === minor && pa < floorPatch)));
        const otherLine = ma !== major || mi !== minor;
        if (belowFloor)
          expect(verdict).toMatchObject({
            upToDate: false,
            severe: true,
            error: expect.stringContaining("CVE-2025-55182"),
          });
        else if (otherLine)
          expect(verdict).toMatchObject({
            upToDate: false,
            severe: true,
            error: expect.stringContaining("severely outdated"),
          });
        else if (pa < patch)
          expect(verdict).toMatchObject({
            upToDate: false,
            severe: false,
            error: expect.stringContaining("is outdated"),
          });
        else expect(verdict).toEqual({ upToDate: true });
        expect(checkVersionResponse.safeParse(verdict).success).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it("calls a pre-release of the current version outdated, and another spelling of it severe, as upstream does", () => {
    expect(checkVersion(`${EMULATED_PROVIDER_VERSION}-rc.1`)).toMatchObject({ upToDate: false, severe: false });
    expect(checkVersion(`${EMULATED_PROVIDER_VERSION}+local`)).toMatchObject({
      upToDate: false,
      severe: true,
      error: expect.stringContaining("is not the provider's version"),
    });
    expect(checkVersion(`v${EMULATED_PROVIDER_VERSION}`)).toMatchObject({ upToDate: false, severe: true });
    expect(checkVersion("latest")).toMatchObject({
      upToDate: false,
      severe: true,
      error: expect.stringContaining('"latest" is not a semantic version'),
    });
  });

  it("is served at POST /api/v1/check-version without authentication, and refuses a malformed body with SCHEMA_ERROR", async () => {
    const provider = newProvider();
    const answer = await api(provider, "/check-version", { json: { clientVersion: "2.8.60" } });
    expect(checkVersionResponse.parse(await expectJson(answer))).toMatchObject({ upToDate: false, severe: false });
    // With keys it answers the same (the route needs none, but a caller's headers are still checked).
    expect(
      await expectJson(
        await api(provider, "/check-version", {
          headers: server(),
          json: { clientVersion: EMULATED_PROVIDER_VERSION },
        }),
      ),
    ).toEqual({ upToDate: true });
    await expectKnownError(
      await api(provider, "/check-version", { headers: client(), json: { version: "2.8.60" } }),
      "SCHEMA_ERROR",
      400,
    );
    await expectKnownError(await api(provider, "/check-version", { method: "POST" }), "SCHEMA_ERROR", 400);
    expect(provider.requestLog.list().map((e) => e.operationId)).toEqual([
      "checkVersion",
      "checkVersion",
      "checkVersion",
      "checkVersion",
    ]);
    expect(provider.unexpected).toEqual([]);
  });
});

import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { operations } from "../contract/operations.ts";

/**
 * The SDK calls /api/v1 only through the contract's operations (operation-call.ts), so that no path is spelled twice
 * (issue 18). This scan fails if a source file outside the contracts spells an /api/v1 path again: a string literal
 * starting with the first segment of a contract path ("/users…", "/internal/…", "/team-…").
 */

const sdkSrc = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    // The wire's contract spells them; the emulator's control-plane contract has paths of its own under /__emulator.
    if (entry.isDirectory())
      return (entry.name === "contract" || entry.name === "emulator") && dir === sdkSrc ? [] : sourceFiles(full);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

/** Files whose path-like literals are not /api/v1 paths, each with its reason. */
const notApiPaths: Record<string, string> = {
  "urls/domains.ts": "the dashboard's page for a project's domains (/projects/<id>/domains), a dashboard URL",
};

const withoutComments = (text: string) => text.replace(/\/\*[\s\S]*?\*\//g, "").replace(/(^|[^:])\/\/.*$/gm, "$1");

const firstSegments = [
  ...new Set(operations.map((o) => o.path.split("/")[1]).filter((s): s is string => !!s && !s.startsWith(":"))),
];
const literalPath = new RegExp(
  `["'\`]/(${firstSegments.map((s) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("|")})(?=[/"'\`?$])`,
  "g",
);

describe("the SDK's /api/v1 paths", () => {
  it("knows the contract's first path segments (the scan below would pass vacuously without them)", () => {
    expect(firstSegments).toEqual(
      expect.arrayContaining(["auth", "users", "internal", "teams", "contact-channels", "payments"]),
    );
    expect('ctx.transport.request("/users/me", {})'.match(literalPath)).toHaveLength(1);
    expect("`/internal/config/override/${level}`".match(literalPath)).toHaveLength(1);
  });

  it("are spelled only in the contract: no source file outside sdk/src/contract has a literal one", () => {
    const scanned = sourceFiles(sdkSrc).filter((file) => !(path.relative(sdkSrc, file) in notApiPaths));
    expect(scanned.length).toBeGreaterThan(50);
    const found = scanned.flatMap((file) =>
      withoutComments(fs.readFileSync(file, "utf8"))
        .split("\n")
        .filter((line) => new RegExp(literalPath.source).test(line))
        .map((line) => `${path.relative(sdkSrc, file)}: ${line.trim()}`),
    );
    expect(found).toEqual([]);
  });
});

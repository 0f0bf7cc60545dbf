import { describe, expect, it } from "vitest";
import { refusal, refusalAreas, refusalMatches, refusals, type Refusal } from "./refusals.ts";

describe("the plain-text refusals", () => {
  it("gives each id once across the areas' files (a repeated one would hide the other when they are joined)", () => {
    const ids = refusalAreas.flatMap((area) => Object.keys(area));
    expect(ids.filter((id, i) => ids.indexOf(id) !== i)).toEqual([]);
    expect(Object.keys(refusals)).toHaveLength(ids.length);
  });

  it("throws a refusal with its catalogued status and text", () => {
    const error = refusal("invalidCursor");
    expect([error.status, error.message]).toEqual([400, "Invalid cursor"]);
    const parts = refusal("apiKeysNotEnabled", "Team");
    expect([parts.status, parts.message]).toEqual([400, "Team API keys are not enabled for this project."]);
  });

  it("matches a text made of a refusal's parts, whatever the parts, and no other text", () => {
    const entry: Refusal = refusals.oauthProviderUserFound;
    expect(refusalMatches(entry, refusal("oauthProviderUserFound", "a.b*c", "(u)").message)).toBe(true);
    expect(refusalMatches(entry, "OAuth provider x for user y not found.")).toBe(false);
    expect(refusalMatches(refusals.invalidCursor, "Invalid cursor!")).toBe(false);
  });

  it("gives each text one entry per status, so an id names one answer", () => {
    const seen = new Map<string, string>();
    for (const [id, entry] of Object.entries(refusals) as [string, Refusal][]) {
      const key = `${entry.status} ${typeof entry.text === "string" ? entry.text : entry.text.toString()}`;
      expect(seen.get(key), `${id} repeats ${seen.get(key)}`).toBeUndefined();
      seen.set(key, id);
      expect(entry.status >= 400 && entry.status < 600, id).toBe(true);
    }
  });
});

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { imageUrl } from "./common.ts";
import { clientUserUpdate } from "./users.ts";
import { clientTeamCreate } from "./teams.ts";

describe("profile image URLs", () => {
  it("accept web URLs and inline images", () => {
    for (const url of [
      "https://cdn.example.com/a.png",
      "http://localhost:3000/me.jpg",
      "data:image/png;base64,iVBORw0KGgo=",
    ]) {
      expect(imageUrl.safeParse(url).success).toBe(true);
    }
  });

  it("refuse script, file and non-image data URLs, whatever their case", () => {
    const scheme = fc.constantFrom("javascript", "JavaScript", "file", "vbscript", "data:text/html,", "ftp");
    fc.assert(
      fc.property(scheme, fc.webPath(), (prefix, path) => {
        const url = prefix.endsWith(",") ? `${prefix}${path}` : `${prefix}:${path || "alert(1)"}`;
        expect(imageUrl.safeParse(url).success).toBe(false);
      }),
    );
  });

  it("are checked on user and team writes", () => {
    expect(clientUserUpdate.safeParse({ profile_image_url: "javascript:alert(1)" }).success).toBe(false);
    expect(clientTeamCreate.safeParse({ display_name: "T", profile_image_url: "javascript:alert(1)" }).success).toBe(
      false,
    );
    expect(clientUserUpdate.safeParse({ profile_image_url: null }).success).toBe(true);
  });
});

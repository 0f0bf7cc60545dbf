import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { decodeBasicAuthorization, integrationClientHeaders } from "./integrations.ts";

/** The integrations' Basic credentials (upstream's decoder and header schema), for any id and secret. */

const encode = (id: string, secret: string) => {
  const bytes = new TextEncoder().encode(`${id}:${secret}`);
  return `Basic ${btoa(String.fromCharCode(...bytes))}`;
};

describe("decodeBasicAuthorization", () => {
  it("gives back any id without a colon and any secret, colons and Unicode included", () => {
    const id = fc.string({ unit: "grapheme" }).filter((s) => !s.includes(":"));
    fc.assert(
      fc.property(id, fc.string({ unit: "grapheme" }), (clientId, secret) => {
        expect(decodeBasicAuthorization(encode(clientId, secret))).toEqual([clientId, secret]);
        expect(integrationClientHeaders.safeParse({ authorization: encode(clientId, secret) }).success).toBe(true);
      }),
    );
  });

  it("refuses another scheme, extra parts, or text that is not padded base64, with the real message", () => {
    const notBasic = fc.oneof(
      fc.string().map((s) => `Bearer ${btoa(s)}`),
      fc.string().map((s) => `${encode("a", "b")} ${s}`),
      fc.constantFrom("Basic", "Basic ", "basic YTpi", "Basic YTpi=", "Basic %%%%"),
    );
    fc.assert(
      fc.property(notBasic, (header) => {
        expect(decodeBasicAuthorization(header)).toBeNull();
        const checked = integrationClientHeaders.safeParse({ authorization: header });
        expect(checked.success).toBe(false);
        expect(checked.error?.issues[0]?.message).toBe('Authorization header must be in the format "Basic <base64>"');
      }),
    );
  });
});

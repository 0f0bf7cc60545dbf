import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { MAX_BODY_BYTES, noteTextBody, rawBodyOf, readBody } from "./parse.ts";

/** What reading a body answers: its value, or the error's status and message. */
async function outcome(request: Request): Promise<unknown> {
  try {
    return { value: await readBody(request), raw: rawBodyOf(request) };
  } catch (error) {
    return { error: String(error), status: (error as { status?: number }).status };
  }
}

const post = (body: string, type: string, headers: Record<string, string> = {}) =>
  new Request("http://x/api/v1/x", { method: "POST", headers: { "content-type": type, ...headers }, body });

/** A body read from the text it was made from (provider.fetch) reads exactly as the same body read from its stream. */
describe("a body known as text", () => {
  it("reads as its stream reads, whatever the text (BOMs and lone surrogates included) and its type", async () => {
    const text = fc.oneof(
      fc.string({ unit: "binary" }),
      fc.string({ unit: "binary" }).map((s) => `\uFEFF${s}`),
      fc.json(),
      fc.constantFrom("", "\uD800", '{"a":"\uDC00"}', "a=1&b=%zz"),
    );
    const type = fc.constantFrom("application/json", "text/plain", "application/x-www-form-urlencoded", "", "x/y");
    await fc.assert(
      fc.asyncProperty(text, type, async (body, contentType) => {
        const known = post(body, contentType);
        noteTextBody(known, body);
        expect(await outcome(known)).toEqual(await outcome(post(body, contentType)));
      }),
    );
  });

  it("is refused past the size limit as its stream is, unless a length within it was declared", async () => {
    const big = "x".repeat(MAX_BODY_BYTES + 1);
    const declared: Record<string, string>[] = [
      {},
      { "content-length": String(big.length) },
      { "content-length": "5" },
    ];
    for (const headers of declared) {
      const known = post(big, "text/plain", headers);
      noteTextBody(known, big);
      expect(await outcome(known)).toEqual(await outcome(post(big, "text/plain", headers)));
    }
  });
});

import { describe, expect, it } from "vitest";
import { z } from "zod";
import { check } from "./parse.ts";

/** SCHEMA_ERROR lines worded as the real service's validation words them ("<path> <problem>", no colon). */
const problems = (schema: z.ZodType, value: unknown) => {
  const checked = check(schema, value, "body");
  return checked.ok ? [] : checked.problems;
};

describe("schema-error wording", () => {
  it("names the object that has unknown properties, nested ones by their path", () => {
    const schema = z.strictObject({ config: z.strictObject({ server: z.strictObject({ host: z.string() }) }) });
    expect(problems(schema, { extra: 1, config: { server: { host: "h", port: 1 } } }).sort()).toEqual([
      "body contains unknown properties: extra",
      "body.config.server contains unknown properties: port",
    ]);
  });

  it("words formats, enums and bounds as the real service does", () => {
    const schema = z.strictObject({
      url: z.string().url().optional(),
      b64: z.string().base64().optional(),
      only: z.literal(false).optional(),
      pick: z.enum(["on", "off"]).optional(),
      n: z.number().max(10).optional(),
      m: z.number().int().min(1).optional(),
      s: z.string().min(1).optional(),
      long: z.string().max(3).optional(),
      list: z.array(z.object({ kind: z.enum(["a", "b"]) })).optional(),
      email: z.string().email().optional(),
    });
    expect(
      problems(schema, {
        url: "",
        b64: "%%%",
        only: true,
        pick: "x",
        n: 11,
        m: 1.5,
        s: "",
        long: "abcd",
        list: [{ kind: "c" }],
        email: "no",
      }),
    ).toEqual([
      "body.url is not a valid URL",
      "body.b64 is not valid base64",
      "body.only must be one of the following values: false",
      "body.pick must be one of the following values: on, off",
      "body.n must be less than or equal to 10",
      "body.m must be an integer",
      "body.s must not be empty",
      "body.long must be at most 3 characters",
      "body.list[0].kind must be one of the following values: a, b",
      "body.email must be a valid email",
    ]);
  });

  it("says a missing field must be defined, a null one cannot be null, and prints a wrong-typed value", () => {
    const schema = z.object({
      a: z.string(),
      b: z.string(),
      c: z.number(),
      d: z.union([z.string().uuid(), z.literal("me")]),
    });
    expect(problems(schema, { b: null, c: "7" })).toEqual([
      "body.a must be defined",
      "body.b cannot be null",
      'body.c must be a `number` type, but the final value was: `"7"`.',
      "body.d must be defined",
    ]);
  });

  it("names a problem once when two checks of a field word it the same way", () => {
    const schema = z.object({
      url: z
        .string()
        .url()
        .refine((v) => v.startsWith("https:"), "must be an http(s) URL or a data:image URL"),
    });
    expect(problems(schema, { url: "" })).toEqual(["body.url is not a valid URL"]);
  });

  it("puts the contract's own lowercase messages after the path without a colon", () => {
    const schema = z.object({
      id: z.string().regex(/^x$/, "must be a valid UUID (version 4)"),
      t: z.string().refine((v) => v === "ok", "must be ok"),
    });
    expect(problems(schema, { id: "y", t: "no" })).toEqual(["body.id must be a valid UUID", "body.t must be ok"]);
  });
});

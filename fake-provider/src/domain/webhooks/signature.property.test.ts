import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { Webhook } from "svix";
import { bytesToBase64, systemClock } from "@authsim/sdk/runtime";
import { svixHeaders } from "./signature.ts";

/** Any secret, id and body signed here is what the svix package's verify accepts, and any other body it refuses. */

const secretOf = (bytes: Uint8Array) => `whsec_${bytesToBase64(bytes)}`;
// svix's verify measures the timestamp against the wall clock (5 minutes either way).
const nowSeconds = () => Math.floor(systemClock.now() / 1000);

describe("Svix signatures", () => {
  it("verify with the svix package for any secret, message id and body", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.uint8Array({ minLength: 24, maxLength: 64 }),
        fc.stringMatching(/^msg_[0-9a-zA-Z]{27}$/),
        fc.json(),
        async (key, id, body) => {
          const secret = secretOf(key);
          const headers = await svixHeaders(secret, id, nowSeconds(), body);
          expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
        },
      ),
      { numRuns: 60 },
    );
  });

  it("are refused for a body changed by one character, or another secret", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.uint8Array({ minLength: 24, maxLength: 24 }),
        fc.uint8Array({ minLength: 24, maxLength: 24 }),
        fc.string({ minLength: 1 }),
        async (key, otherKey, text) => {
          fc.pre(bytesToBase64(key) !== bytesToBase64(otherKey));
          const body = JSON.stringify({ type: "user.created", data: { text } });
          const headers = await svixHeaders(secretOf(key), "msg_0123456789abcdefghijklmnopq", nowSeconds(), body);
          const changed = body.replace(/}$/, " }");
          expect(() => new Webhook(secretOf(key)).verify(changed, headers)).toThrow();
          expect(() => new Webhook(secretOf(otherKey)).verify(body, headers)).toThrow();
        },
      ),
      { numRuns: 60 },
    );
  });
});

import { z } from "zod";

/** Shared wire pieces (protocol.md §5 conventions). */

/** Version-4 UUIDs only: the published SDK refuses anything else, and a malformed id is a SCHEMA_ERROR, not a 404. */
export const uuidV4 = z
  .string()
  .regex(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i, "must be a valid UUID (version 4)");
/** Project ids are UUIDs or the literal `internal` (protocol.md §5). */
export const projectId = z.union([uuidV4, z.literal("internal")]);
/** Path/query/body fields typed "user id or me" (protocol.md §2.4). */
export const userIdOrMe = z.union([uuidV4, z.literal("me")]);

/**
 * Profile images: a web URL or an inline image (account settings upload images as data URLs). Anything else — a
 * `javascript:` or `file:` URL — would be rendered into an <img src> by every app that shows the user, so it is refused.
 */
export const imageUrl = z
  .string()
  .url()
  .refine((value) => /^(https?:\/\/|data:image\/)/i.test(value), "must be an http(s) URL or a data:image URL");

/**
 * A URL field as the real service checks it: a value with a space is refused for that first ("contains spaces") and
 * then, like any other, for not being a URL, both reported in one SCHEMA_ERROR.
 */
export const urlField = z
  .string()
  .refine((value) => !value.includes(" "), "contains spaces")
  .url();

/** Arbitrary JSON metadata (`null` when unset). */
export const jsonValue: z.ZodType<unknown> = z.unknown();
export const metadata = jsonValue.nullable();

export const millis = z.number().int().nonnegative();

/**
 * A quantity the real service keeps in a Postgres `Int` (item quantities and their changes): 32 bits, signed. Bounded
 * here too, so sums of many changes stay exact in a double (a delta of ±(2^53−1) once summed to a wrong total).
 */
export const int32 = z.number().int().min(-2_147_483_648).max(2_147_483_647);

/** Query-string booleans are the strings "true" / "false". */
export const queryBoolean = z.enum(["true", "false"]).transform((v) => v === "true");

export const successResponse = z.object({ success: z.literal(true) });
/** The answer of endpoints that accept and discard (the telemetry sinks of protocol.md §6.5). */
export const emptyObject = z.object({});

/**
 * A view chosen by who calls (protocol.md §5): the client view for client access, the server view for server and
 * admin access. A union, so a description of the wire (the OpenAPI document) shows both; the options stay in that
 * order, so a check can hold each caller to its own view (response-kinds.ts `schemaForCaller`).
 */
export function byAccess<C extends z.ZodType, S extends z.ZodType>(client: C, server: S): z.ZodUnion<readonly [C, S]> {
  return z
    .union([client, server])
    .describe("The client view for client access; the server view for server and admin access.");
}

/** List envelopes (protocol.md §5.1). */
export function listEnvelope<T extends z.ZodType>(item: T) {
  return z.object({ items: z.array(item), is_paginated: z.literal(false) });
}
export function paginatedEnvelope<T extends z.ZodType>(item: T) {
  return z.object({
    items: z.array(item),
    is_paginated: z.literal(true),
    pagination: z.object({ next_cursor: z.string().nullable() }),
  });
}

export const restrictedReason = z.object({
  type: z.enum(["anonymous", "email_not_verified", "restricted_by_administrator"]),
});
export type RestrictedReason = z.infer<typeof restrictedReason>;

/**
 * The bot-challenge fields the sign-up, sign-in-code and OAuth-authorize requests take (the real service verifies them
 * with Cloudflare Turnstile; its own e2e suite sends them on every such call). A token alone is the legacy one-phase
 * flow; `bot_challenge_phase` names the invisible or visible step; `bot_challenge_unavailable` says the widget could not
 * load. The emulator has no challenge service and lets every request through, so these are accepted and not judged.
 */
export const botChallengeFields = {
  bot_challenge_token: z.string().optional(),
  bot_challenge_phase: z.enum(["invisible", "visible"]).optional(),
  bot_challenge_unavailable: z.literal("true").optional(),
};

const anyUuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[089ab][0-9a-f]{3}-[0-9a-f]{12}$/i;

/**
 * A UUID the real service refuses with its own bare line ("Invalid batch_id"), no path before it (session replays'
 * and analytics events' batches).
 */
export const uuidNamed = (field: string) =>
  z.string().refine((s) => anyUuid.test(s), { message: `Invalid ${field}`, params: { bare: true } });

import { catalogue } from "./catalogue.ts";
import type { HeaderFamily } from "./headers.ts";
import type { KnownErrorCode } from "./error-codes.ts";
import { stackWording } from "./wording.ts";

/**
 * The known-error catalogue (protocol.md §3). Every code has a fixed status; throw sites name a code and its details,
 * never a status or a message of their own. Both the SDK (decoding) and the fake provider (encoding) use this module.
 */
export type { AbstractKnownErrorCode, ConcreteKnownErrorCode, KnownErrorCode } from "./error-codes.ts";

export type KnownErrorDetails = Record<string, unknown>;

export interface KnownErrorSpec {
  readonly code: KnownErrorCode;
  readonly status: number | null;
  readonly abstract: boolean;
  /** Ancestors, nearest first: catching a parent catches its children (protocol.md §3.1). */
  readonly parents: readonly KnownErrorCode[];
  readonly details: readonly string[];
  /** The details are whatever the thrower passed (abstract parents such as VERIFICATION_ERROR). */
  readonly passthrough: boolean;
  readonly message: string;
}

const byCode = new Map<string, KnownErrorSpec>(catalogue.map((e) => [e.code, e as KnownErrorSpec]));

export const knownErrorCodes: readonly KnownErrorCode[] = catalogue.map((e) => e.code);

export function isKnownErrorCode(code: unknown): code is KnownErrorCode {
  return typeof code === "string" && byCode.has(code);
}

export function knownErrorSpec(code: KnownErrorCode): KnownErrorSpec {
  const spec = byCode.get(code);
  if (!spec) throw new Error(`Not a known-error code: ${code}`);
  return spec;
}

/** True when `code` is `ancestor` or descends from it (e.g. VERIFICATION_CODE_EXPIRED is a VERIFICATION_ERROR). */
export function isKnownErrorOf(code: KnownErrorCode, ancestor: KnownErrorCode): boolean {
  return code === ancestor || knownErrorSpec(code).parents.includes(ancestor);
}

function fill(template: string, vars: Record<string, unknown>): string {
  return template.replace(/\{([A-Za-z_]+)\}/g, (whole, name: string) => {
    const v = vars[name];
    if (v === undefined) return whole;
    return typeof v === "string" ? v : JSON.stringify(v);
  });
}

function iso(millis: unknown): string | null {
  return typeof millis === "number" && Number.isFinite(millis) ? new Date(millis).toISOString() : null;
}

/** Messages that are not a plain template: optional parts, lists, or a variant chosen by a detail. */
const computed: Partial<Record<KnownErrorCode, (d: KnownErrorDetails, family: HeaderFamily) => string>> = {
  INSUFFICIENT_ACCESS_TYPE: (d, family) => {
    const allowed = Array.isArray(d.allowed_access_types) ? d.allowed_access_types.map((t) => `'${String(t)}'`) : [];
    const actual = String(d.actual_access_type);
    // The April-2026 service joins every allowed type with " or "; the published catalogue lists them "a, b or c".
    if (family === "stack")
      return `The x-stack-access-type header must be ${allowed.join(" or ")}, but was '${actual}'.`;
    const list = allowed.length <= 1 ? allowed.join("") : `${allowed.slice(0, -1).join(", ")} or ${allowed.at(-1)}`;
    return `The x-hexclave-access-type header must be ${list}, but was '${actual}'. (The legacy x-stack-access-type header is also accepted.)`;
  },
  ACCESS_TOKEN_EXPIRED: (d) => {
    const at = iso(d.expired_at_millis);
    return (
      "Access token has expired. Please refresh it and try again." +
      (at ? ` (The access token expired at ${at}.)` : "") +
      (d.project_id ? ` Project ID: ${String(d.project_id)}.` : "") +
      (d.user_id ? ` User ID: ${String(d.user_id)}.` : "") +
      (d.refresh_token_id ? ` Refresh token ID: ${String(d.refresh_token_id)}.` : "") +
      "\n\nDebug info: Most likely, you fetched the access token before it expired, but by the time the request reached the server it had expired. Refresh the access token and try again."
    );
  },
  ADMIN_ACCESS_TOKEN_EXPIRED: (d) => {
    const at = iso(d.expired_at_millis);
    return (
      "Admin access token has expired. Please refresh it and try again." +
      (at ? ` (The access token expired at ${at}.)` : "")
    );
  },
  USER_EMAIL_ALREADY_EXISTS: (d) =>
    d.would_work_if_email_was_verified === true
      ? `A user with email "${String(d.email)}" already exists but the email is not verified. Please login to your existing account with the method you used to sign up, and then verify your email to sign in with this login method.`
      : `A user with email "${String(d.email)}" already exists.`,
  // The "not verified" advice only when verifying would make it work (a raise_error refusal has none).
  CONTACT_CHANNEL_ALREADY_USED_FOR_AUTH_BY_SOMEONE_ELSE: (d) =>
    `This ${String(d.type ?? "email")} ${d.contact_channel_value ? `"(${String(d.contact_channel_value)})"` : ""} is already used for authentication by another account` +
    (d.would_work_if_email_was_verified === true
      ? " but the email is not verified. Please login to your existing account with the method you used to sign up, and then verify your email to sign in with this login method."
      : "."),
  ALL_OVERLOADS_FAILED: (d) => {
    const errors = Array.isArray(d.overload_errors) ? d.overload_errors : [];
    return (
      "This endpoint has multiple overloads, but they all failed to process the request." +
      errors.map((e, i) => `\n\n  Overload ${i + 1}: ${JSON.stringify(e)}`).join("")
    );
  },
  RESTRICTED_USER_NOT_ALLOWED: (d) =>
    `The user in the access token is in restricted state. Reason: ${restrictedType(d)}. Please pass the X-Stack-Allow-Restricted-User header if this is intended.`,
  TEAM_INVITATION_RESTRICTED_USER_NOT_ALLOWED: (d) =>
    `Restricted users cannot accept team invitations. Reason: ${restrictedType(d)}. Please complete the onboarding process before accepting team invitations.`,
  // The catalogue words the plain case; a server-only product, or an id that names an item, is said to be so.
  PRODUCT_DOES_NOT_EXIST: (d) => {
    const id = JSON.stringify(String(d.product_id));
    if (d.context === "server_only")
      return `Product with ID ${id} is marked as server-only and cannot be accessed client side.`;
    if (d.context === "item_exists") return `Product with ID ${id} does not exist, but an item with this ID exists.`;
    return `Product with ID ${id} does not exist.`;
  },
};

function restrictedType(d: KnownErrorDetails): string {
  const r = d.restricted_reason;
  return r && typeof r === "object" && "type" in r ? String((r as { type: unknown }).type) : "unknown";
}

/**
 * The human message for a code, worded for a caller of `family` (wording.ts; the catalogue's own wording is the
 * published, x-hexclave one). `extra` fills placeholders that are not details (e.g. BODY_PARSING_ERROR's {message},
 * INVALID_SCOPE's {scope}).
 */
export function knownErrorMessage(
  code: KnownErrorCode,
  details: KnownErrorDetails = {},
  extra: Record<string, unknown> = {},
  family: HeaderFamily = "hexclave",
): string {
  const compute = computed[code];
  if (compute) return compute(details, family);
  const template = (family === "stack" ? stackWording[code] : undefined) ?? knownErrorSpec(code).message;
  return fill(template, { ...extra, ...details });
}

/** The JSON body of a known-error response (protocol.md §3.1): `details` is omitted when the error has none. */
export interface KnownErrorBody {
  code: string;
  error: string;
  details?: KnownErrorDetails;
}

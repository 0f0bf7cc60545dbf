import type { z } from "zod";
import { printValue } from "./yup-union.ts";

/**
 * The real service checks requests with yup and words each SCHEMA_ERROR line as "<path> <problem>", with no colon:
 * "body.profile_image_url is not a valid URL", "body.is_anonymous must be one of the following values: false",
 * "body.expires_in_millis must be less than or equal to 31708800000". The contract is written in zod; this turns a zod
 * issue into that wording (api/http/parse.ts `check`). Null when the issue has no known counterpart (the caller keeps
 * zod's own message then).
 *
 * `value` is the value at the issue's path (undefined when absent).
 */
export function yupWording(issue: z.core.$ZodIssue, path: string, value: unknown): string | null {
  switch (issue.code) {
    case "invalid_value":
      return `${path} must be one of the following values: ${issue.values.map(String).join(", ")}`;
    case "invalid_format":
      return formatWording(issue, path);
    case "too_big":
      return boundWording(issue.origin, "max", issue.maximum, issue.inclusive ?? true, path);
    case "too_small":
      return boundWording(issue.origin, "min", issue.minimum, issue.inclusive ?? true, path);
    case "invalid_union":
      // A union of a literal and a format ("me" or a UUID): the real field is one string schema, refused as a whole.
      if (value === undefined) return `${path} must be defined`;
      // Worded by its first alternative (the UUID), as the real one string schema would refuse it.
      {
        const first = issue.errors[0];
        return first?.length === 1 && first[0]!.path.length === 0 ? yupWording(first[0]!, path, value) : null;
      }
    case "invalid_type":
      if (value === null) return `${path} cannot be null`;
      if (issue.expected === "int" && typeof value === "number") return `${path} must be an integer`;
      return `${path} must be a \`${yupType(issue.expected)}\` type, but the final value was: \`${printValue(value)}\`.`;
    case "custom":
      // The contract's own lowercase wordings ("must not be empty", "is invalid") follow the path as the real ones do.
      return /^[a-z]/.test(issue.message) ? `${path} ${customWording(issue.message)}` : null;
    default:
      return null;
  }
}

/** Messages a contract refinement gives that the real service words differently. */
function customWording(message: string): string {
  if (message === "must be an http(s) URL or a data:image URL") return "is not a valid URL";
  return message;
}

function formatWording(issue: z.core.$ZodIssueInvalidStringFormat, path: string): string | null {
  switch (issue.format) {
    case "url":
      return `${path} is not a valid URL`;
    case "base64":
    case "base64url":
      return `${path} is not valid base64`;
    case "uuid":
    case "guid":
      return `${path} must be a valid UUID`;
    case "email":
      return `${path} must be a valid email`;
    case "regex":
      // A refusing regex with the contract's own lowercase message ("must be a valid UUID (version 4)").
      if (!/^[a-z]/.test(issue.message)) return null;
      return `${path} ${issue.message === "must be a valid UUID (version 4)" ? "must be a valid UUID" : issue.message}`;
    default:
      return null;
  }
}

function boundWording(
  origin: string,
  side: "min" | "max",
  bound: number | bigint,
  inclusive: boolean,
  path: string,
): string | null {
  const n = String(bound);
  if (origin === "string") {
    if (side === "min") return bound === 1 ? `${path} must not be empty` : `${path} must be at least ${n} characters`;
    return `${path} must be at most ${n} characters`;
  }
  if (origin === "array" || origin === "set") {
    return side === "min"
      ? `${path} field must have at least ${n} items`
      : `${path} field must have less than or equal to ${n} items`;
  }
  if (origin === "number" || origin === "int" || origin === "bigint") {
    if (side === "max")
      return inclusive ? `${path} must be less than or equal to ${n}` : `${path} must be less than ${n}`;
    return inclusive ? `${path} must be greater than or equal to ${n}` : `${path} must be greater than ${n}`;
  }
  return null;
}

function yupType(expected: string): string {
  if (expected === "record") return "object";
  if (expected === "int") return "number";
  return expected;
}

/**
 * What the request log may keep of a request (issue 10): it is shown in the dashboard and exported by
 * GET /__emulator/requests, so it must never hold a secret. The log records no headers and no bodies; what it does keep
 * that a caller controls (the query string, the path, and the "why" lines that quote it) passes through here first.
 *
 * - Query parameters named like a secret (token, code, state, password, *_secret, *_key, …) are masked. OAuth puts the
 *   user's access token (`token`) and the client secret on the authorize URL, and the identity provider's code on the
 *   callback URL (protocol.md §7.5).
 * - Anything shaped like an access token (a JWT) or a key of this emulator (project keys, user and team API keys,
 *   refresh tokens are plain base32 and covered by the names) is masked wherever it appears.
 *
 * A long value keeps its last four characters, as the API shows API keys after creation (spec §3), so two log lines can
 * still be matched up; a short one (an OTP is 6 characters) is masked whole.
 */

const REDACTED = "[redacted]";
/** Values at least this long keep their last four characters; below it four characters would give too much away. */
const KEEP_LAST_FOUR_FROM = 20;

/** `[redacted:wxyz]`, or `[redacted]` for a short value or one that is never partly shown (passwords, OTPs). */
export function mask(value: string, options: { whole?: boolean; encode?: (s: string) => string } = {}): string {
  if (options.whole || value.length < KEEP_LAST_FOUR_FROM) return REDACTED;
  const lastFour = value.slice(-4);
  return `[redacted:${options.encode ? options.encode(lastFour) : lastFour}]`;
}

/** Parameter names that carry secrets: exact names, then suffixes (…_token, …_secret, …_key, …_password, …_code). */
const SECRET_NAMES = new Set([
  "code",
  "state",
  "token",
  "password",
  "secret",
  "otp",
  "totp",
  "nonce",
  "api_key",
  "apikey",
  "key",
  "code_verifier",
  "hashed_key",
  "encrypted_value",
  "full_code",
]);
const SECRET_SUFFIX = /[_-](token|secret|key|password|code|otp|verifier)$/;

export function isSecretName(name: string): boolean {
  const lower = name.toLowerCase();
  return SECRET_NAMES.has(lower) || SECRET_SUFFIX.test(lower);
}

/** Passwords and one-time codes are low-entropy or short-lived guesses: no character of them is shown. */
const maskedWhole = (name: string) => /password|otp/i.test(name);

/**
 * Values that are secrets whatever they are called: JWTs (access tokens, ID tokens), this emulator's project keys
 * (pck_/ssk_/sak_), user or team API keys (pk_/sk_ and one long run in the real format, domain/auth/api-key-format.ts; or
 * pk_/sk_ + user/team, as older snapshots hold them), and long lowercase base32 runs (refresh tokens and
 * emailed codes are 45 such characters, protocol.md §4.3; ids are UUIDs, whose hyphens keep their runs short).
 */
const SECRET_VALUES = [
  /eyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{4,}/g,
  /\b(?:pck|ssk|sak)_[A-Za-z0-9_]{16,}/g,
  /\b[ps]k_(?:user|team)_[A-Za-z0-9]{16,}/g,
  /\b[ps]k_[A-Za-z0-9]{40,}/g,
  /\b[0-9a-z]{40,}\b/g,
];

/** Masks every secret-shaped run inside free text (a "why" line, a path, a value under an innocent name). */
/**
 * A part every match of SECRET_VALUES contains ("eyJ", an underscore, or 40 base32 characters in a row): most texts
 * (an API path) have none, and are spared the five replacements, which every logged request paid.
 */
const MAY_HOLD_SECRET = /eyJ|_|[0-9a-z]{40}/;

export function redactText(text: string): string {
  if (!MAY_HOLD_SECRET.test(text)) return text;
  let out = text;
  for (const pattern of SECRET_VALUES) out = out.replace(pattern, (found) => mask(found));
  return out;
}

function decode(part: string): string {
  try {
    return decodeURIComponent(part.replace(/\+/g, " "));
  } catch {
    return part;
  }
}

/**
 * The query string (without "?") with secret parameters masked. Pairs are rewritten one by one, so the order and the
 * spelling of everything else stay as the client sent them.
 */
export function redactQuery(query: string): string {
  if (query.length === 0) return query;
  return query
    .split("&")
    .map((pair) => {
      const eq = pair.indexOf("=");
      if (eq < 0) return redactText(pair);
      const name = pair.slice(0, eq);
      const value = pair.slice(eq + 1);
      const plainName = decode(name);
      if (isSecretName(plainName))
        return `${name}=${mask(decode(value), { whole: maskedWhole(plainName), encode: encodeURIComponent })}`;
      // A value may be a URL whose own query carries a secret (a redirect URL with ?code=…): decoded, then masked.
      const decoded = decode(value);
      const cleaned = redactNestedUrl(decoded);
      return cleaned === decoded ? `${name}=${value}` : `${name}=${encodeURIComponent(cleaned)}`;
    })
    .join("&");
}

/** A parameter value that is itself a URL: its query and path get the same treatment. */
function redactNestedUrl(value: string): string {
  const scrubbed = redactText(value);
  const at = scrubbed.indexOf("?");
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(scrubbed) || at < 0) return scrubbed;
  const hash = scrubbed.indexOf("#", at);
  const end = hash < 0 ? scrubbed.length : hash;
  return `${scrubbed.slice(0, at + 1)}${redactQuery(scrubbed.slice(at + 1, end))}${scrubbed.slice(end)}`;
}

/**
 * The plain-text (non-known-error) 4xx answers the fuzzer accepts. The first list is what protocol.md documents
 * (§1, §2.3 step 7, §3.2 notes, §4.1, §6.3). The second is what areas of the fake answer today that protocol.md does
 * not mention. Several are upstream's own StatusErrors (the api-keys 403, "Contact channel not found.", the OTP 403 are
 * in the stack-auth source); the rest await the same check. They belong in protocol.md's list of plain StatusErrors.
 * A plain text outside both lists fails the fuzz suite: the wire either has it documented or it is a known error.
 */
interface PlainText {
  status: number;
  text: string | RegExp;
  /** Only on these operations (all when absent). */
  operations?: readonly string[];
}

export const protocolPlainTexts: readonly PlainText[] = [
  { status: 404, text: /^404 — this page does not exist in Stack Auth's API\.\n\nPlease see the API documentation/ },
  { status: 405, text: "Method not allowed" },
  { status: 404, text: "Project not found", operations: ["jwks"] },
  { status: 401, text: "The user associated with the admin access token is no longer valid. Please refresh the admin access token and try again." },
  { status: 401, text: "Invalid development key override" },
  { status: 400, text: "Client user deletion is not enabled for this project.", operations: ["deleteMe"] },
  { status: 400, text: /^Cannot use both creator_user_id and add_current_user\./, operations: ["createTeam"] },
];

export const undocumentedAreaPlainTexts: readonly PlainText[] = [
  { status: 404, text: "Contact channel not found." },
  { status: 400, text: "Contact channel already exists" },
  { status: 400, text: "Contact channel not found. Was your contact channel deleted?" },
  { status: 404, text: "Session not found.", operations: ["deleteSession"] },
  { status: 400, text: /^(User|Team) API keys are not enabled for this project\.$/ },
  { status: 403, text: "Client can only manage their own api keys" },
  { status: 403, text: /^Client can only manage .+ of their own user\.$/ },
  { status: 400, text: "At least one of has_publishable_client_key, has_secret_server_key and has_super_secret_admin_key must be true." },
  { status: 403, text: "OTP sign-in is not enabled for this project" },
  { status: 404, text: "Notification category not found" },
  { status: 400, text: "This user already has a password. Use /auth/password/update to change it.", operations: ["setPassword"] },
  { status: 400, text: "Stripe account ID is not set" },
  { status: 400, text: "Price not found on offer associated with this purchase code" },
  { status: 400, text: "This offer is not stackable; quantity must be 1" },
  { status: 400, text: "Tenancy id does not match value from code data" },
  // OAuth (upstream's own StatusError, seen in the stack-auth source).
  // The OAuth library's words for a PKCE method it cannot verify (ops/oauth-authorize.ts says why it comes up front).
  { status: 400, text: /^Invalid request: transform algorithm '.*' not supported$/s, operations: ["oauthAuthorize"] },
  { status: 400, text: /^Inner OAuth cookie not found\. This is likely because you refreshed the page during the OAuth sign in process\./ },
  { status: 403, text: 'Client can only list permissions for their own user. user_id must be either "me" or the ID of the current user', operations: ["listProjectPermissions", "listTeamPermissions"] },
  { status: 400, text: "Cannot set both password and password_hash at the same time.", operations: ["createUser", "updateUser", "updateMe"] },
  { status: 400, text: "Invalid password hash. Make sure it's a supported algorithm in Modular Crypt Format.", operations: ["createUser", "updateUser", "updateMe"] },
  { status: 400, text: /^quantity \d+ grants more than 2147483647 of an included item$/ },
  // Email templates, themes and drafts: not found in the stack-auth source; unconfirmed.
  { status: 404, text: /^No email (template|theme|draft) with id .+$/ },
];

export function plainTextAllowed(operationId: string, status: number, text: string): boolean {
  return [...protocolPlainTexts, ...undocumentedAreaPlainTexts].some(
    (p) => p.status === status && (!p.operations || p.operations.includes(operationId)) && (typeof p.text === "string" ? p.text === text : p.text.test(text)),
  );
}

import type { KnownErrorCode } from "./error-codes.ts";

/**
 * The `x-stack-*` family's wording of the messages that name a header or the product (protocol.md §3.2: the April-2026
 * service says `x-stack-…`, "Stack" / "Stack Auth dashboard" and docs.stack-auth.com where the published catalogue says
 * `x-hexclave-…`, "Hexclave" and docs.hexclave.com, and adds "(The legacy … header is also accepted.)").
 * The catalogue holds the published wording; these templates replace it for a caller using the x-stack-* family. Codes
 * not listed are worded the same in both families.
 */
const docsLink =
  "\n\nFor more information, see the docs on REST API authentication: https://docs.stack-auth.com/rest-api/overview#authentication";

export const stackWording: Partial<Record<KnownErrorCode, string>> = {
  PROJECT_KEY_WITHOUT_ACCESS_TYPE:
    "Either an API key or an admin access token was provided, but the x-stack-access-type header is missing. Set it to 'client', 'server', or 'admin' as appropriate.",
  INVALID_ACCESS_TYPE: "The x-stack-access-type header must be 'client', 'server', or 'admin', but was '{accessType}'.",
  ACCESS_TYPE_WITHOUT_PROJECT_ID: `The x-stack-access-type header was '{request_type}', but the x-stack-project-id header was not provided.${docsLink}`,
  ACCESS_TYPE_REQUIRED:
    "You must specify an access level for this Stack project. Make sure project API keys are provided (eg. x-stack-publishable-client-key) and you set the x-stack-access-type header to 'client', 'server', or 'admin'." +
    docsLink,
  CURRENT_PROJECT_NOT_FOUND:
    "The current project with ID {project_id} was not found. Please check the value of the x-stack-project-id header.",
  REDIRECT_URL_NOT_WHITELISTED:
    "Redirect URL not whitelisted. Did you forget to add this domain to the trusted domains list on the Stack Auth dashboard?",
  APPLE_BUNDLE_ID_NOT_CONFIGURED:
    "Apple Sign In is enabled, but no Bundle IDs are configured. Please add your app's Bundle ID in the Stack Auth dashboard under OAuth Providers > Apple > Apple Bundle IDs.",
};

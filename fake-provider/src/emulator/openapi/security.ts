import { headerNames, rebranded, type OperationAccess } from "@authsim/sdk/contract";

/**
 * The request-authentication headers (protocol.md §2) as OpenAPI security schemes, and which combinations each access
 * level accepts. The provider reads either header family (`x-stack-*` or the published SDK's `x-hexclave-*`); the
 * schemes name the legacy one, which every backend accepts.
 */
type SchemeName =
  | "accessType"
  | "projectId"
  | "publishableClientKey"
  | "secretServerKey"
  | "superSecretAdminKey"
  | "adminAccessToken"
  | "accessToken";

const descriptions: Record<SchemeName, string> = {
  accessType: "client, server or admin: which key the request authenticates with.",
  projectId: "The project the request is for.",
  publishableClientKey:
    "The project's publishable client key (client access; optional unless the project requires one).",
  secretServerKey: "The project's secret server key (server access).",
  superSecretAdminKey: "The project's super secret admin key (admin access).",
  adminAccessToken: "An access token of an internal-project user who owns the project (admin access without the key).",
  accessToken: "The signed-in user's access token, sent with any access type for calls about that user.",
};

export function securitySchemes(): Record<string, unknown> {
  return Object.fromEntries(
    (Object.keys(descriptions) as SchemeName[]).map((name) => [
      name,
      {
        type: "apiKey",
        in: "header",
        name: headerNames[name],
        description: `${descriptions[name]} Also accepted as ${rebranded(headerNames[name])}.`,
      },
    ]),
  );
}

const asClient = { accessType: [], projectId: [], publishableClientKey: [] };
const asServer = { accessType: [], projectId: [], secretServerKey: [] };
const asAdmin = { accessType: [], projectId: [], superSecretAdminKey: [] };
const asOwner = { accessType: [], projectId: [], adminAccessToken: [] };

/** Alternatives, any one of which authenticates the call ("client" operations take client, server or admin keys). */
export function securityFor(access: OperationAccess): Record<string, string[]>[] {
  switch (access) {
    case "none":
      return [];
    case "client":
      return [asClient, asServer, asAdmin, asOwner];
    case "server":
      return [asServer, asAdmin, asOwner];
    case "admin":
      return [asAdmin, asOwner];
  }
}

export const accessDescriptions: Record<OperationAccess, string> = {
  none: "No project authentication.",
  client: "Client, server or admin access.",
  server: "Server or admin access.",
  admin: "Admin access only.",
};

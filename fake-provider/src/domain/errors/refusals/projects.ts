import type { Arg, Refusal } from "./refusal.ts";

/** Plain-text refusals of projects, their keys and JWKS (domain/ops/projects/). */
export const projectsRefusals = {
  // domain/ops/projects/api-keys.ts
  apiKeysNotEnabled: { status: 400, text: (value: Arg) => `${value} API keys are not enabled for this project.` },
  clientOwnApiKeysOnly: { status: 403, text: "Client can only manage their own api keys" },
  // domain/ops/projects/internal-api-keys.ts
  atLeastOnePublishableClient: {
    status: 400,
    text: "At least one of has_publishable_client_key, has_secret_server_key and has_super_secret_admin_key must be true.",
  },
  // domain/ops/projects/owned-projects.ts
  projectOwnerTeamTransferred: { status: 400, text: "Project must have an owner team to be transferred" },
  // domain/ops/projects/project-admin.ts
  invalidEmailTheme: { status: 400, text: "Invalid email theme" },
  internalProjectCannotDeleted: { status: 400, text: "The internal project cannot be deleted." },
  // domain/ops/projects/project-jwks.ts
  projectNotFound: { status: 404, text: "Project not found", operations: ["jwks", "createAiConversation"] },
} as const satisfies Readonly<Record<string, Refusal>>;

import type { Refusal } from "./refusal.ts";

/** Plain-text refusals of the Neon and custom integrations (domain/ops/integrations/). */
export const integrationsRefusals = {
  // domain/ops/integrations/: the integrations' own StatusErrors (transfer, identity provider, Neon's admin views)
  neonProjectNotTransferable: {
    status: 400,
    text: "This project either doesn't exist or the current Neon client is not authorized to transfer it. Note that projects can only be transferred once.",
  },
  integrationProjectNotTransferable: {
    status: 400,
    text: "This project either doesn't exist or the current external project is not authorized to transfer it. Note that projects can only be transferred once.",
  },
  integrationTransferInternalOnly: { status: 400, text: "This endpoint is only available for internal projects." },
  neonTransferNotProvisioned: {
    status: 400,
    text: "The project to transfer was not provisioned by Neon or has already been transferred.",
  },
  integrationTransferNotProvisioned: {
    status: 400,
    text: "The project to transfer was not provisioned or has already been transferred.",
  },
  integrationTransferProjectMissing: { status: 400, text: "The project to transfer was not found." },
  integrationTransferAlreadyOwned: { status: 400, text: "The project to transfer has already been transferred." },
  idpInvalidAuthorizationCode: { status: 400, text: "Invalid authorization code. Please try again." },
  idpInteractionMismatch: {
    status: 400,
    text: "Different interaction UID than expected from the authorization code. Did you redirect to the correct URL?",
  },
  tooManyTrustedDomains: {
    status: 400,
    text: "This project has more than 1000 trusted domains. This is not supported. Please delete some domains to add a new one, or use wildcard domains instead.",
  },
  oauthProviderAlreadyExists: { status: 400, text: "OAuth provider already exists" },
  oauthProviderNotFound: { status: 404, text: "OAuth provider not found" },
} as const satisfies Readonly<Record<string, Refusal>>;

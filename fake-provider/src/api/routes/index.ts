import { accountRoutes } from "./account.ts";
import { adminRoutes } from "./admin.ts";
import { aiConversationRoutes } from "./ai-conversations.ts";
import { aiProxyRoutes } from "./ai-proxy.ts";
import { analyticsRoutes } from "./analytics.ts";
import { dataVaultRoutes } from "./data-vault.ts";
import type { RouteTable } from "./define.ts";
import { internalExtraRoutes } from "./internal-extras.ts";
import { featureRequestRoutes } from "./feature-requests.ts";
import { invitationRoutes } from "./invitations.ts";
import { mcpReviewRoutes } from "./mcp-review.ts";
import { metaRoutes } from "./meta.ts";
import { migrationTestRoutes } from "./migration-tests.ts";
import { externalDbSyncRoutes } from "./external-db-sync.ts";
import { paymentRoutes } from "./payments.ts";
import { permissionRoutes } from "./permissions.ts";
import { projectRoutes } from "./projects.ts";
import { sessionReplayRoutes } from "./session-replays.ts";
import { sessionRoutes } from "./sessions.ts";
import { strongAuthRoutes } from "./strong-auth.ts";
import { teamMemberRoutes } from "./team-members.ts";
import { teamRoutes } from "./teams.ts";
import { userRoutes } from "./users.ts";
import { integrationRoutes } from "./integrations.ts";

/** Every implemented operation, by contract operation id. Operations absent here answer 501. */
export const implementedRoutes: RouteTable = {
  ...metaRoutes,
  ...sessionRoutes,
  ...userRoutes,
  ...projectRoutes,
  ...teamRoutes,
  ...teamMemberRoutes,
  ...permissionRoutes,
  ...invitationRoutes,
  ...accountRoutes,
  ...paymentRoutes,
  ...dataVaultRoutes,
  ...adminRoutes,
  ...strongAuthRoutes,
  ...sessionReplayRoutes,
  ...analyticsRoutes,
  ...internalExtraRoutes,
  ...migrationTestRoutes,
  ...externalDbSyncRoutes,
  ...featureRequestRoutes,
  ...mcpReviewRoutes,
  ...aiConversationRoutes,
  ...aiProxyRoutes,
  ...integrationRoutes,
};

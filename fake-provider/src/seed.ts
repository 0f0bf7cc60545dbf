import { devProjectSeed, internalProjectSeed, type ProjectSeed } from "@authsim/fixtures";
import { INTERNAL_PROJECT_ID } from "@authsim/sdk/contract";
import type { OpContext } from "./domain/ops/context.ts";
import { seedProject } from "./domain/ops/projects/projects.ts";
import { applyPaymentsSeed, devPaymentsSeed, type PaymentsConfigInput } from "./domain/ops/payments/payments-config.ts";
import { seedDefaultOAuthProviders } from "./domain/ops/oauth/oauth-config.ts";
import { seedInternalPlans } from "./domain/ops/payments/internal-plans.ts";
import { seedOnboardedAccount } from "./domain/ops/payments/payment-accounts.ts";

/** What a fresh provider holds: the `internal` project, and the seeded projects (the dev project by default). */
export interface ProviderSeed {
  projects: ProjectSeed[];
  /** Payments catalogue and vault stores per project id (domain/ops/payments/payments-config.ts); absent projects have none. */
  payments?: Record<string, PaymentsConfigInput>;
  /**
   * Projects whose payments account is already set up and onboarded (domain/ops/payments/payment-accounts.ts), as if their admin had
   * completed onboarding: the dev server's dev project, so its seeded catalogue can be bought at once. Others start as
   * a new project of the real service does, with purchases refused until POST /internal/payments/setup.
   */
  paymentsSetUp?: string[];
}

export const defaultSeed: ProviderSeed = {
  projects: [devProjectSeed],
  payments: { [devProjectSeed.id]: devPaymentsSeed },
};

export function applySeed(ctx: OpContext, seed: ProviderSeed): void {
  seedProject(ctx, internalProjectSeed);
  // The plans the internal project sells to the teams that own projects (dashboard admin seats and other limits).
  seedInternalPlans(ctx);
  for (const project of seed.projects) {
    if (project.id === INTERNAL_PROJECT_ID) continue;
    // The owner team lives in the internal project; its members administer the project (protocol.md §8).
    if (project.owner_team_id && !ctx.tables.teams.has(project.owner_team_id)) {
      ctx.tables.teams.set(project.owner_team_id, {
        id: project.owner_team_id,
        projectId: INTERNAL_PROJECT_ID,
        displayName: `Owners of ${project.display_name}`,
        profileImageUrl: null,
        clientMetadata: null,
        clientReadOnlyMetadata: null,
        serverMetadata: null,
        createdAtMillis: ctx.now,
      });
    }
    seedProject(ctx, project, project.owner_team_id ?? null);
  }
  applyPaymentsSeed(ctx, seed.payments);
  for (const projectId of seed.paymentsSetUp ?? [])
    if (ctx.tables.projects.has(projectId)) seedOnboardedAccount(ctx, projectId);
  // Enabled OAuth providers for the mock identity provider (domain/ops/oauth/oauth-config.ts).
  seedDefaultOAuthProviders(ctx);
}

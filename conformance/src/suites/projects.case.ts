import { describe, expect, it } from "vitest";
import { devProjectSeed, internalProjectSeed } from "@authsim/fixtures";
import { AdminSessionUnsupportedError, KnownError } from "@authsim/sdk";
import { INTERNAL_PROJECT_ID } from "@authsim/sdk/contract";
import type { Clock } from "@authsim/sdk/runtime";
import type { Target } from "../targets.ts";
import {
  adminApp,
  clientApp,
  expectKnownError,
  internalUser,
  itIf,
  needs,
  recordingFetch,
  serverApp,
  sharedClock,
  signedUpClient,
  tokenTimes,
} from "./support.ts";

/**
 * The project as a client and as an admin (spec §3 "Project", §6 access modes; protocol.md §2.3 step 7): the super
 * secret admin key, and admin access tokens of `internal`-project users who belong to the project's owner team.
 */

/**
 * An `internal` user made a member of the project's owner team, a team of the `internal` project (protocol.md §8),
 * through the internal project's server API with its local-development secret key, as any team membership is added.
 * `leave` takes the membership back, so a long-lived target keeps no extra administrator of its project.
 */
async function ownerTeamMember(target: Target, extras: { clock?: Clock } = {}) {
  const ownerTeamId = (await adminApp(target).getProject()).ownerTeamId;
  if (typeof ownerTeamId !== "string") throw new Error("The target's project has no owner team.");
  const internalServer = serverApp(target, {
    projectId: INTERNAL_PROJECT_ID,
    publishableClientKey: internalProjectSeed.keys.publishable_client_key,
    secretServerKey: internalProjectSeed.keys.secret_server_key,
  });
  const ownerTeam = await internalServer.getTeam(ownerTeamId);
  if (!ownerTeam) throw new Error(`The owner team ${ownerTeamId} is not a team of the internal project.`);
  const member = await internalUser(target, extras);
  await ownerTeam.addUser(member.userId);
  return { ...member, leave: () => ownerTeam.removeUser(member.userId) };
}

export function projectCases(getTarget: () => Target): void {
  const devProject = needs.devProject(getTarget());
  const [isDevProject] = devProject;
  const internalDevKeys = needs.internalDevKeys(getTarget());

  describe("the client's project", () => {
    itIf(devProject)("getProject gives the dev project's config flags", async () => {
      const project = await clientApp(getTarget()).getProject();
      const flags = devProjectSeed.config;
      expect(project.id).toBe(devProjectSeed.id);
      expect(project.displayName).toBe(devProjectSeed.display_name);
      expect(project.config).toMatchObject({
        signUpEnabled: flags.sign_up_enabled,
        credentialEnabled: flags.credential_enabled,
        magicLinkEnabled: flags.magic_link_enabled,
        passkeyEnabled: flags.passkey_enabled,
        clientTeamCreationEnabled: flags.client_team_creation_enabled,
        clientUserDeletionEnabled: flags.client_user_deletion_enabled,
        allowUserApiKeys: flags.allow_user_api_keys,
        allowTeamApiKeys: flags.allow_team_api_keys,
      });
      // The enabled providers are the admin config's (whatever the emulator seeds), by id (protocol.md §5.9).
      const admin = await adminApp(getTarget()).getProject();
      expect(project.config.oauthProviders).toEqual(admin.config.oauthProviders.map((p) => ({ id: p.id })));
    });

    it("getProject names the target's project", async () => {
      const target = getTarget();
      const project = await clientApp(target).getProject();
      expect(project.id).toBe(target.projectId);
      expect(project.displayName.length).toBeGreaterThan(0);
    });
  });

  describe("the admin's project", () => {
    it("getProject with the super secret admin key gives the admin view", async () => {
      const target = getTarget();
      const project = await adminApp(target).getProject();
      expect(project.id).toBe(target.projectId);
      expect(project.createdAt).toBeInstanceOf(Date);
      expect(project.config.emailConfig.type).toMatch(/^(shared|standard)$/);
      expect(Array.isArray(project.config.domains)).toBe(true);
      if (isDevProject) {
        expect(project.displayName).toBe(devProjectSeed.display_name);
        expect(project.description).toBe(devProjectSeed.description);
        expect(project.isProductionMode).toBe(false);
        expect(project.ownerTeamId).toBe(devProjectSeed.owner_team_id);
        expect(project.config.signUpEnabled).toBe(devProjectSeed.config.sign_up_enabled);
        expect(project.config.allowLocalhost).toBe(devProjectSeed.config.allow_localhost);
      }
    });

    it("refuses a wrong admin key with INVALID_SUPER_SECRET_ADMIN_KEY (401)", async () => {
      const target = getTarget();
      const error = await expectKnownError(
        adminApp(target, { superSecretAdminKey: "sak_wrong" }).getProject(),
        "INVALID_SUPER_SECRET_ADMIN_KEY",
        401,
      );
      expect(error.details).toMatchObject({ project_id: target.projectId });
      expect(error.isInstance("INVALID_PROJECT_AUTHENTICATION")).toBe(true);
    });

    itIf(internalDevKeys)("works from the admin access token of an owner-team member", async () => {
      const target = getTarget();
      const { app, leave } = await ownerTeamMember(target);
      try {
        const admin = adminApp(target, { projectOwnerSession: () => app.getAccessToken() });
        const project = await admin.getProject();
        expect(project.id).toBe(target.projectId);
        // Admin access covers the server operations too.
        const { userId } = await signedUpClient(target);
        expect((await admin.getUser(userId))?.id).toBe(userId);
      } finally {
        await leave();
      }
    });

    itIf(internalDevKeys, needs.sharedClock(getTarget()))(
      "asks the project-owner session again once its admin access token is about to expire",
      async () => {
        const target = getTarget();
        const clock = await sharedClock(target);
        const { app, leave } = await ownerTeamMember(target, { clock });
        try {
          const tokens: (string | null)[] = [];
          const admin = adminApp(target, {
            clock,
            projectOwnerSession: async () => {
              tokens.push(await app.getAccessToken());
              return tokens[tokens.length - 1] ?? null;
            },
          });
          expect((await admin.getProject()).id).toBe(target.projectId);
          expect((await admin.getProject()).id).toBe(target.projectId);
          expect(tokens).toHaveLength(1);
          await clock.advance(tokenTimes(tokens[0]!).lifetimeMillis);
          expect((await admin.getProject()).id).toBe(target.projectId);
          expect(tokens).toHaveLength(2);
          expect(tokens[1]).not.toBe(tokens[0]);
        } finally {
          await leave();
        }
      },
    );

    itIf(internalDevKeys)(
      "refuses the admin access token of a non-member with ADMIN_ACCESS_TOKEN_IS_NOT_ADMIN",
      async () => {
        const target = getTarget();
        const { app } = await internalUser(target);
        const token = (await app.getAccessToken())!;
        const error = await expectKnownError(
          adminApp(target, { projectOwnerSession: token }).getProject(),
          "ADMIN_ACCESS_TOKEN_IS_NOT_ADMIN",
          401,
        );
        expect(error.isInstance("INVALID_ADMIN_ACCESS_TOKEN")).toBe(true);
        expect(error.isInstance("PROJECT_AUTHENTICATION_ERROR")).toBe(true);
      },
    );

    itIf(internalDevKeys)("an admin session refuses token refresh with a clear error", async () => {
      const target = getTarget();
      const { app } = await internalUser(target);
      const recorder = recordingFetch(target);
      // A store holding only a refresh token: getting the user's access token would need the refresh grant.
      const admin = adminApp(target, {
        fetch: recorder.fetch,
        projectOwnerSession: () => app.getAccessToken(),
        tokenStore: { accessToken: null, refreshToken: await app.getRefreshToken() },
      });
      const error: unknown = await admin.getUser().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(AdminSessionUnsupportedError);
      expect(error).not.toBeInstanceOf(KnownError);
      expect((error as Error).message).toMatch(/admin session .* cannot be used for token refresh/);
      expect(recorder.count("/api/v1/auth/oauth/token")).toBe(0);
    });
  });
}

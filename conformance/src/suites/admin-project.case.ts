import { describe, expect } from "vitest";
import { LOCALHOST_IN_PRODUCTION_MESSAGE } from "@authsim/sdk/urls";
import type { Target } from "../targets.ts";
import { SMTP, ownedProject } from "./admin-support.ts";
import { PASSWORD, adminApp, clientApp, expectKnownError, itIf, needs, uniqueEmail, uniqueTag } from "./support.ts";

/**
 * Project administration through the SDK (spec §3 "Project (admin view)", §4 "Project transfer", §5, §6; sdk-surface.md
 * §9d, §17, §18): owned projects of dashboard users, the admin config and its effect on the auth endpoints,
 * production mode, the config endpoints, transfer and deletion. Every case works on a project of its own.
 */
export function adminProjectCases(getTarget: () => Target): void {
  // Owned projects are created by a user of `internal`, signed up with its local-development keys.
  const it = itIf(needs.internalDevKeys(getTarget()));

  describe("owned projects", () => {
    it("an owner creates a project for their team, lists it, and administers it through its app", async () => {
      const { owner, teamId, project, admin } = await ownedProject(getTarget(), "Conformance Owned");
      expect(project).toMatchObject({ displayName: "Conformance Owned", ownerTeamId: teamId, isProductionMode: false });
      const listed = await (await owner.getUser({ or: "throw" })).listOwnedProjects!();
      expect(listed.map((p) => p.id)).toContain(project.id);
      expect((await admin.getProject()).id).toBe(project.id);
      expect(admin.projectId).toBe(project.id);
    });

    it("another dashboard user does not see it, and their admin access token is refused", async () => {
      const { project } = await ownedProject(getTarget());
      const other = await ownedProject(getTarget());
      const listed = await (await other.owner.getUser({ or: "throw" })).listOwnedProjects!();
      expect(listed.map((p) => p.id)).not.toContain(project.id);
      const intruder = adminApp(getTarget(), {
        projectId: project.id,
        projectOwnerSession: () => other.owner.getAccessToken(),
      });
      await expectKnownError(intruder.getProject(), "ADMIN_ACCESS_TOKEN_IS_NOT_ADMIN", 401);
    });

    it("transfers a project to another of the owner's teams (spec §4)", async () => {
      const { owner, project } = await ownedProject(getTarget());
      const user = await owner.getUser({ or: "throw" });
      const second = await user.createTeam({ displayName: uniqueTag("second") });
      await user.transferProject!(project.id, second.id);
      const moved = (await user.listOwnedProjects!()).find((p) => p.id === project.id);
      expect(moved?.ownerTeamId).toBe(second.id);
      await expectKnownError(
        user.transferProject!("0d0d0d0d-0d0d-4d0d-8d0d-0d0d0d0d0d0d", second.id),
        "PROJECT_NOT_FOUND",
        404,
      );
    });

    it("deleting the project ends it: its admin app then finds no project", async () => {
      const { project, admin } = await ownedProject(getTarget());
      await project.delete();
      await expectKnownError(admin.getProject(), "CURRENT_PROJECT_NOT_FOUND", 400);
    });
  });

  describe("the admin config", () => {
    it("update sets the whole admin config of spec §3, and the client view follows", async () => {
      const { project, admin, client } = await ownedProject(getTarget());
      await project.update({
        displayName: "Renamed",
        description: "configured",
        config: {
          allowLocalhost: false,
          oauthAccountMergeStrategy: "raise_error",
          createTeamOnSignUp: true,
          teamCreatorDefaultPermissions: [{ id: "team_admin" }],
          userDefaultPermissions: [],
          emailTheme: "default-dark",
          domains: [{ domain: "https://app.example.com", handlerPath: "/handler" }],
          oauthProviders: [
            { id: "github", type: "shared" },
            { id: "discord", type: "standard", clientId: "cid", clientSecret: "secret" },
          ],
          emailConfig: { type: "standard", ...SMTP },
          clientTeamCreationEnabled: true,
          allowUserApiKeys: true,
        },
      });
      const read = await admin.getProject();
      expect(read).toMatchObject({ displayName: "Renamed", description: "configured" });
      expect(read.config).toMatchObject({
        allowLocalhost: false,
        oauthAccountMergeStrategy: "raise_error",
        createTeamOnSignUp: true,
        emailTheme: "default-dark",
        domains: [{ domain: "https://app.example.com", handlerPath: "/handler" }],
        emailConfig: { type: "standard", host: SMTP.host, port: SMTP.port, senderEmail: SMTP.senderEmail },
        clientTeamCreationEnabled: true,
        allowUserApiKeys: true,
      });
      // Listed by provider id, as upstream lists them.
      expect(read.config.oauthProviders.map((p) => [p.id, p.type, p.clientId])).toEqual([
        ["discord", "standard", "cid"],
        ["github", "shared", undefined],
      ]);
      const seen = await client().getProject();
      expect(seen.displayName).toBe("Renamed");
      expect(seen.config).toMatchObject({
        clientTeamCreationEnabled: true,
        allowUserApiKeys: true,
        oauthProviders: [{ id: "discord" }, { id: "github" }],
      });
    });

    it("the sign-up and credential switches are enforced by the auth endpoints", async () => {
      const { project, client } = await ownedProject(getTarget());
      await project.update({ config: { signUpEnabled: false } });
      const email = uniqueEmail("switch");
      await expectKnownError(
        client().signUpWithCredential({ email, password: PASSWORD, noVerificationCallback: true, noRedirect: true }),
        "SIGN_UP_NOT_ENABLED",
        400,
      );
      await project.update({ config: { signUpEnabled: true, credentialEnabled: false } });
      await expectKnownError(
        client().signUpWithCredential({ email, password: PASSWORD, noVerificationCallback: true, noRedirect: true }),
        "PASSWORD_AUTHENTICATION_NOT_ENABLED",
        400,
      );
      await project.update({ config: { credentialEnabled: true } });
      expect(
        (
          await client().signUpWithCredential({
            email,
            password: PASSWORD,
            noVerificationCallback: true,
            noRedirect: true,
          })
        ).status,
      ).toBe("ok");
    });

    it("refuses an invalid trusted domain and a shared key for a provider without one", async () => {
      const { project } = await ownedProject(getTarget());
      await expectKnownError(
        project.update({ config: { domains: [{ domain: "https://..example.com", handlerPath: "/handler" }] } }),
        "SCHEMA_ERROR",
        400,
      );
      await expectKnownError(
        project.update({ config: { oauthProviders: [{ id: "twitch", type: "shared" }] } }),
        "INVALID_SHARED_OAUTH_PROVIDER_ID",
        400,
      );
    });
  });

  // The real service stores production mode whatever the domains say (its backend has no such check); the admin kit's
  // getProductionModeErrors flags what is not ready, as the dashboard's launch checklist shows it.
  describe("production mode (spec §5)", () => {
    it("is stored while localhost is allowed, and getProductionModeErrors flags it with the exact message", async () => {
      const { project, admin } = await ownedProject(getTarget());
      expect((await (await admin.getProject()).getProductionModeErrors()).map((e) => e.message)).toEqual([
        LOCALHOST_IN_PRODUCTION_MESSAGE,
      ]);
      await project.update({ isProductionMode: true });
      const live = await admin.getProject();
      expect(live.isProductionMode).toBe(true);
      expect((await live.getProductionModeErrors()).map((e) => e.message)).toEqual([LOCALHOST_IN_PRODUCTION_MESSAGE]);
    });

    it("has no errors once localhost is off and every trusted domain is HTTPS", async () => {
      const { project, admin } = await ownedProject(getTarget());
      await project.update({
        config: { allowLocalhost: false, domains: [{ domain: "http://192.168.1.10", handlerPath: "/handler" }] },
      });
      const errors = await (await admin.getProject()).getProductionModeErrors();
      expect(errors.length).toBeGreaterThan(0);
      expect(errors.every((e) => e.message.includes("http://192.168.1.10"))).toBe(true);
      await project.update({
        isProductionMode: true,
        config: { domains: [{ domain: "https://app.example.com", handlerPath: "/handler" }] },
      });
      const live = await admin.getProject();
      expect(live.isProductionMode).toBe(true);
      expect(await live.getProductionModeErrors()).toEqual([]);
    });
  });

  describe("the config endpoints", () => {
    it("getConfig renders the settings; updateConfig overrides them with a JSON string and the endpoints follow", async () => {
      const { admin, client } = await ownedProject(getTarget());
      const project = await admin.getProject();
      const config = await project.getConfig();
      expect(config).toMatchObject({ auth: { allowSignUp: true }, domains: { allowLocalhost: true } });
      await project.updateConfig({ "auth.allowSignUp": false });
      expect(await project.getConfigOverride("environment")).toEqual({ "auth.allowSignUp": false });
      expect(((await project.getConfig()).auth as { allowSignUp: boolean }).allowSignUp).toBe(false);
      expect((await admin.getProject()).config.signUpEnabled).toBe(false);
      await expectKnownError(
        client().signUpWithCredential({
          email: uniqueEmail("cfg"),
          password: PASSWORD,
          noVerificationCallback: true,
          noRedirect: true,
        }),
        "SIGN_UP_NOT_ENABLED",
        400,
      );
    });

    it("requirePublishableClientKey (a project-level override) makes keyless client access fail", async () => {
      const target = getTarget();
      const { project } = await ownedProject(target);
      const keyless = () => clientApp(target, { projectId: project.id, publishableClientKey: undefined });
      expect((await keyless().getProject()).id).toBe(project.id);
      await project.update({ requirePublishableClientKey: true });
      await expectKnownError(keyless().getProject(), "PUBLISHABLE_CLIENT_KEY_REQUIRED_FOR_PROJECT", 401);
    });
  });
}

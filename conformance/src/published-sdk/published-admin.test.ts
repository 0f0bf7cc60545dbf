import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { StackAdminApp, StackClientApp, type CurrentInternalUser } from "@stackframe/js";
import { devProjectSeed as dev, internalProjectSeed as internal } from "@authsim/fixtures";
import { serveFakeProvider, type ServedProvider } from "../harness/serve.ts";

/**
 * What the published @stackframe/js (2.8.108) does with the admin surface, unchanged, against the fake over a real port
 * (issue 6): reading and updating the project (with requirePublishableClientKey through the config override), its
 * config, internal API keys, email themes and templates rendered by the provider, the test email, the sent list,
 * metrics and the svix token, managed email onboarding and the onboarding preview; and the owned projects of an
 * `internal` user, which work without a browser.
 */
let served: ServedProvider;
beforeAll(async () => {
  served = await serveFakeProvider();
});
afterAll(async () => {
  await served.close();
});

// The published options types want env-derived literals; these are the documented constructor options.
type ClientOptions = ConstructorParameters<typeof StackClientApp>[0];
type AdminOptions = ConstructorParameters<typeof StackAdminApp>[0];

const common = (project = dev) => ({
  baseUrl: served.baseUrl,
  projectId: project.id,
  publishableClientKey: project.keys.publishable_client_key,
  tokenStore: "memory",
  noAutomaticPrefetch: true,
  analytics: { enabled: false },
});
const adminApp = () =>
  new StackAdminApp({
    ...common(),
    secretServerKey: dev.keys.secret_server_key,
    superSecretAdminKey: dev.keys.super_secret_admin_key,
  } as AdminOptions);

const TEMPLATE = `import { Text } from "@react-email/components";
import { Subject, NotificationCategory } from "@stackframe/emails";
export function EmailTemplate({ user }: { user: { displayName: string | null } }) {
  return <><Subject value="Hello from the published SDK" /><NotificationCategory value="Transactional" /><Text>Hi {user.displayName ?? "friend"}</Text></>;
}`;

describe("published @stackframe/js 2.8.108: the admin surface against the fake provider", () => {
  it("reads and updates the project, including requirePublishableClientKey through the config override", async () => {
    const admin = adminApp();
    const project = await admin.getProject();
    expect(project).toMatchObject({
      id: dev.id,
      displayName: dev.display_name,
      ownerTeamId: dev.owner_team_id,
      isProductionMode: false,
    });
    expect(project.config.emailConfig).toEqual({ type: "shared" });
    await project.update({
      displayName: "Published rename",
      config: {
        domains: [{ domain: "https://published.example.com", handlerPath: "/handler" }],
        oauthProviders: [{ id: "github", type: "shared" }],
      },
    });
    const after = await adminApp().getProject();
    expect(after.displayName).toBe("Published rename");
    expect(after.config.domains).toEqual([{ domain: "https://published.example.com", handlerPath: "/handler" }]);
    expect(after.config.oauthProviders).toEqual([{ id: "github", type: "shared" }]);
    expect((await after.getProductionModeErrors()).map((e) => e.relativeFixUrl)).toEqual([
      `/projects/${dev.id}/domains`,
    ]);
    const config = await after.getConfig();
    expect(config).toMatchObject({ auth: { allowSignUp: true }, domains: { allowLocalhost: true } });
    await after.update({ requirePublishableClientKey: true });
    expect(
      ((await after.getConfig()) as { project: { requirePublishableClientKey: boolean } }).project
        .requirePublishableClientKey,
    ).toBe(true);
    await after.update({
      requirePublishableClientKey: false,
      displayName: dev.display_name,
      config: { domains: [], oauthProviders: [] },
    });
  });

  it("updateConfig writes payment items and products, vault stores and the email server, which the service then serves", async () => {
    const admin = adminApp();
    const project = await admin.getProject();
    await project.updateConfig({
      "payments.items.published-gems": { displayName: "Published gems", customerType: "user" },
      "payments.products.published-pack": {
        displayName: "Published pack",
        customerType: "user",
        serverOnly: false,
        stackable: true,
        prices: { once: { USD: "5.00" } },
        includedItems: { "published-gems": { quantity: 7 } },
      },
      "dataVault.stores.published-store": { displayName: "Published store" },
      "emails.server": {
        isShared: false,
        provider: "smtp",
        host: "smtp.published.example.com",
        port: 2525,
        username: "u",
        password: "p",
        senderName: "Published",
        senderEmail: "mail@published.example.com",
      },
    });
    const server = (path: string, init: RequestInit = {}) =>
      fetch(`${served.baseUrl}/api/v1${path}`, {
        ...init,
        headers: {
          "content-type": "application/json",
          "x-stack-access-type": "server",
          "x-stack-project-id": dev.id,
          "x-stack-secret-server-key": dev.keys.secret_server_key,
        },
      });
    const created = (await (
      await server("/users", { method: "POST", body: JSON.stringify({ primary_email: "published-buyer@example.com" }) })
    ).json()) as { id: string };
    // The product grants its items; the item reads what it granted.
    expect(
      (
        await server(`/payments/products/user/${created.id}`, {
          method: "POST",
          body: JSON.stringify({ product_id: "published-pack" }),
        })
      ).status,
    ).toBe(200);
    expect(
      ((await (await server(`/payments/items/user/${created.id}/published-gems`)).json()) as { quantity: number })
        .quantity,
    ).toBe(7);
    // The vault store takes values.
    const set = await server("/data-vault/stores/published-store/set", {
      method: "POST",
      body: JSON.stringify({ hashed_key: "k", encrypted_value: "v" }),
    });
    expect(set.status).toBe(200);
    // The email server is the project's own.
    expect((await adminApp().getProject()).config.emailConfig).toMatchObject({
      type: "standard",
      host: "smtp.published.example.com",
      port: 2525,
    });
    await project.updateConfig({
      "payments.products.published-pack": null,
      "payments.items.published-gems": null,
      "dataVault.stores.published-store": null,
      "emails.server": { isShared: true },
    });
  });

  it("creates an internal API key whose full values work for a new app", async () => {
    const admin = adminApp();
    const key = await admin.createInternalApiKey({
      description: "published",
      expiresAt: new Date(Date.UTC(2100, 0, 1)),
      hasPublishableClientKey: true,
      hasSecretServerKey: false,
      hasSuperSecretAdminKey: false,
    });
    expect(key.publishableClientKey).toMatch(/^pck_/);
    expect((await admin.listInternalApiKeys()).map((k) => k.id)).toContain(key.id);
    const client = new StackClientApp({ ...common(), publishableClientKey: key.publishableClientKey } as ClientOptions);
    expect((await client.getProject()).id).toBe(dev.id);
  });

  it("lists, creates and updates email templates, rendered by the provider; previews, themes and drafts work", async () => {
    const admin = adminApp();
    const before = await admin.listEmailTemplates();
    // Templates are the project's own only with a custom email server (REQUIRES_CUSTOM_EMAIL_SERVER otherwise).
    const smtp = {
      host: "smtp.example.com",
      port: 587,
      username: "u",
      password: "p",
      senderEmail: "noreply@example.com",
      senderName: "Published",
    };
    await (await admin.getProject()).update({ config: { emailConfig: { type: "standard", ...smtp } } });
    expect(before.map((t) => t.displayName)).toContain("Email Verification");
    const { id } = await admin.createEmailTemplate("Published template");
    const { renderedHtml } = await admin.updateEmailTemplate(id, TEMPLATE, false);
    // A preview's recipient is the real service's sample user (React separates the two text nodes with a comment).
    expect(renderedHtml).toContain("Hi <!-- -->John Doe");
    expect((await admin.listEmailTemplates()).find((t) => t.id === id)).toMatchObject({
      displayName: "Published template",
      tsxSource: TEMPLATE,
    });
    const preview = await admin.getEmailPreview({
      themeId: "a0172b5d-cff0-463b-83bb-85124697373a",
      templateTsxSource: TEMPLATE,
    });
    expect(preview).toContain("background-color:rgb(50,50,50)");
    expect((await admin.listEmailThemes()).map((t) => t.id)).toEqual(
      expect.arrayContaining(["1df07ae6-abf3-4a40-83a5-a1a2cbe336ac", "a0172b5d-cff0-463b-83bb-85124697373a"]),
    ); // the real default ids
    const draft = await admin.createEmailDraft({ displayName: "Published draft", tsxSource: TEMPLATE });
    expect((await admin.listEmailDrafts()).find((d) => d.id === draft.id)).toMatchObject({
      displayName: "Published draft",
      sentAt: null,
    });
    await admin.deleteEmailTemplate(id);
    await (await admin.getProject()).update({ config: { emailConfig: { type: "shared" } } });
  });

  it("sends a test email (ok, or an error result), lists sent emails, reads metrics and a svix token", async () => {
    const admin = adminApp();
    const smtp = {
      host: "smtp.example.com",
      port: 587,
      username: "u",
      password: "p",
      senderEmail: "noreply@example.com",
      senderName: "Published",
    };
    expect(await admin.sendTestEmail({ recipientEmail: "published-test@example.com", emailConfig: smtp })).toEqual({
      status: "ok",
      data: undefined,
    });
    const failed = await admin.sendTestEmail({
      recipientEmail: "published-test@example.com",
      emailConfig: { ...smtp, host: "nowhere.invalid" },
    });
    expect(failed.status).toBe("error");
    const sent = await admin.listSentEmails();
    expect(sent[0]).toMatchObject({ to: ["published-test@example.com"], recipient: "published-test@example.com" });
    expect(sent[0]!.sentAt).toBeInstanceOf(Date);
    // Metrics and the svix token are read through the published admin interface (its app keeps them behind caches).
    const api = (
      admin as unknown as {
        _interface: {
          getSvixToken(): Promise<{ token: string }>;
          getMetrics(a?: boolean): Promise<{ total_users: number }>;
        };
      }
    )._interface;
    expect((await api.getSvixToken()).token.length).toBeGreaterThan(10);
    expect(typeof (await api.getMetrics(true)).total_users).toBe("number");
  });

  it("an internal user creates, lists and transfers owned projects, each with an admin app on its session", async () => {
    const owner = new StackClientApp({ ...common(internal) } as ClientOptions);
    const signUp = await owner.signUpWithCredential({
      email: "published-owner@example.com",
      password: "password-123",
      noVerificationCallback: true,
      noRedirect: true,
    });
    expect(signUp.status).toBe("ok");
    // The published types give the internal-user members only to an app typed for the "internal" project id.
    const user = (await owner.getUser({ or: "throw" })) as unknown as CurrentInternalUser;
    const team = await user.createTeam({ displayName: "Published owners" });
    const project = await user.createProject({ displayName: "Published owned", teamId: team.id });
    expect(project).toMatchObject({ displayName: "Published owned", ownerTeamId: team.id });
    expect((await user.listOwnedProjects()).map((p) => p.id)).toEqual([project.id]);
    // The owned project's admin app authenticates with the owner's session (an admin access token).
    const keys = await project.app.createInternalApiKey({
      description: "owned",
      expiresAt: new Date(Date.UTC(2100, 0, 1)),
      hasPublishableClientKey: true,
      hasSecretServerKey: false,
      hasSuperSecretAdminKey: false,
    });
    expect(keys.publishableClientKey).toMatch(/^pck_/);
    await project.update({ config: { signUpEnabled: false } });
    expect((await project.app.getProject()).config.signUpEnabled).toBe(false);
    const second = await user.createTeam({ displayName: "Published second" });
    await user.transferProject(project.id, second.id);
    expect((await user.listOwnedProjects())[0]!.ownerTeamId).toBe(second.id);
  });

  it("sets up, checks, lists, applies and deletes a managed email domain, and previews who requiring email verification restricts", async () => {
    const admin = adminApp();
    const mail = { subdomain: "mail.published.example.com", senderLocalPart: "noreply" };
    const domain = await admin.setupManagedEmailProvider(mail);
    expect(domain).toMatchObject({
      ...mail,
      status: "pending_verification",
      nameServerRecords: ["ns1.dnsimple.com", "ns2.dnsimple.com"],
    });
    served.provider.clock.advance(1_000);
    expect(await admin.checkManagedEmailStatus({ domainId: domain.domainId, ...mail })).toEqual({ status: "verified" });
    expect(await admin.listManagedEmailDomains()).toEqual([{ ...domain, status: "verified" }]);
    expect(await admin.applyManagedEmailProvider({ domainId: domain.domainId })).toEqual({ status: "applied" });
    const project = await admin.getProject();
    expect(project.config.emailConfig).toMatchObject({
      type: "standard",
      host: "smtp.resend.com",
      senderEmail: "noreply@mail.published.example.com",
    });
    await project.update({ config: { emailConfig: { type: "shared" } } });
    expect(await admin.deleteManagedEmailDomain({ resendDomainId: domain.domainId })).toEqual({ status: "deleted" });
    expect(await admin.listManagedEmailDomains()).toEqual([]);

    const user = await admin.createUser({
      primaryEmail: "published-unverified@example.com",
      primaryEmailVerified: false,
    });
    // The published app has the preview in its implementation only (its dashboard calls it untyped), so it is typed here.
    type Preview = { affectedUsers: unknown[]; totalAffectedCount: number };
    const previewing = admin as unknown as {
      previewAffectedUsersByOnboardingChange(
        change: { requireEmailVerification?: boolean },
        limit?: number,
      ): Promise<Preview>;
    };
    const preview = await previewing.previewAffectedUsersByOnboardingChange({ requireEmailVerification: true }, 1);
    expect(preview.affectedUsers).toEqual([
      {
        id: user.id,
        displayName: null,
        primaryEmail: "published-unverified@example.com",
        restrictedReason: { type: "email_not_verified" },
      },
    ]);
    expect(preview.totalAffectedCount).toBeGreaterThanOrEqual(1);
    expect(await previewing.previewAffectedUsersByOnboardingChange({ requireEmailVerification: false })).toEqual({
      affectedUsers: [],
      totalAffectedCount: 0,
    });
  });
});

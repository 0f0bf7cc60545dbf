import { describe, expect } from "vitest";
import type { Target } from "../targets.ts";
import { SMTP, expectPlainError, ownedProject, sentEmailsWhen } from "./admin-support.ts";
import { adminApp, expectKnownError, itIf, needs, providerOf, uniqueEmail, uniqueTag } from "./support.ts";

/**
 * Email through the SDK (spec §3 "Email theme / template / draft / Sent email", §4, §7, §8; sdk-surface.md §8, §20):
 * themes, templates and drafts as TSX, rendered for real by the provider, sending to users into the outbox, the sent
 * list, the test email and sign-in invitations.
 */

/** The real service's fixed ids of two of its default themes. */
const DEFAULT_LIGHT_THEME_ID = "1df07ae6-abf3-4a40-83a5-a1a2cbe336ac";
const DEFAULT_DARK_THEME_ID = "a0172b5d-cff0-463b-83bb-85124697373a";

/**
 * A saved template must name its subject and its notification category (the real service refuses it otherwise), and
 * gets its variables only through its variablesSchema (without one, the real renderer passes none).
 */
const TEMPLATE = `import { Text } from "@react-email/components";
import { Subject, NotificationCategory } from "@stackframe/emails";
import { type } from "arktype";
export const variablesSchema = type({ item: "string" });
export function EmailTemplate({ user, variables }: { user: { displayName: string | null }; variables: { item: string } }) {
  return <><Subject value={"About " + variables.item} /><NotificationCategory value="Transactional" /><Text>Dear {user.displayName ?? "customer"}, your {variables.item} is ready.</Text></>;
}
EmailTemplate.PreviewVariables = { item: "order" };`;

/** HTML without the `<!-- -->` React's server renderer puts between adjacent text parts (as the real service's does). */
const visibleText = (html: string) => html.replaceAll("<!-- -->", "");

export function adminEmailCases(getTarget: () => Target): void {
  const owned = itIf(needs.internalDevKeys(getTarget()));
  const it = itIf();

  describe("email themes, templates and drafts", () => {
    it("themes: list the defaults, create, update with a source that renders, delete", async () => {
      const admin = adminApp(getTarget());
      const themes = await admin.listEmailThemes();
      expect(themes.map((t) => t.id)).toEqual(expect.arrayContaining([DEFAULT_LIGHT_THEME_ID, DEFAULT_DARK_THEME_ID]));
      const { id } = await admin.createEmailTheme(uniqueTag("Theme"));
      const source = `export function EmailTheme({ children }: { children: React.ReactNode }) { return <html><body><section id="brand">{children}</section></body></html>; }`;
      await admin.updateEmailTheme(id, source);
      expect((await admin.getEmailTheme(id)).tsxSource).toBe(source);
      const html = await admin.getEmailPreview({ themeId: id, templateTsxSource: TEMPLATE });
      expect(html).toContain('<section id="brand">');
      expect(visibleText(html)).toContain("your order is ready");
      await admin.deleteEmailTheme(id);
      expect((await admin.listEmailThemes()).map((t) => t.id)).not.toContain(id);
    });

    owned("templates need the project's own email server (REQUIRES_CUSTOM_EMAIL_SERVER)", async () => {
      const { admin } = await ownedProject(getTarget());
      await expectKnownError(admin.createEmailTemplate(uniqueTag("Receipt")), "REQUIRES_CUSTOM_EMAIL_SERVER", 400);
    });

    owned(
      "templates: create, a second of the same name is EMAIL_TEMPLATE_ALREADY_EXISTS (409), update renders, delete",
      async () => {
        const { project, admin } = await ownedProject(getTarget());
        await project.update({ config: { emailConfig: { type: "standard", ...SMTP } } });
        const name = uniqueTag("Receipt");
        const { id } = await admin.createEmailTemplate(name);
        await expectKnownError(admin.createEmailTemplate(name), "EMAIL_TEMPLATE_ALREADY_EXISTS", 409);
        const { renderedHtml } = await admin.updateEmailTemplate(id, TEMPLATE, false);
        // A preview's recipient is the real service's sample user, John Doe.
        expect(visibleText(renderedHtml)).toContain("Dear John Doe, your order is ready.");
        expect((await admin.listEmailTemplates()).find((t) => t.id === id)).toMatchObject({
          displayName: name,
          themeId: false,
          tsxSource: TEMPLATE,
        });
        await admin.deleteEmailTemplate(id);
        expect((await admin.listEmailTemplates()).map((t) => t.id)).not.toContain(id);
      },
    );

    owned(
      "bad TSX is EMAIL_RENDERING_ERROR (400) with the compiler's message, and a template that never returns is stopped",
      async () => {
        const { project, admin } = await ownedProject(getTarget());
        await project.update({ config: { emailConfig: { type: "standard", ...SMTP } } });
        const { id } = await admin.createEmailTemplate(uniqueTag("Broken"));
        const syntax = await expectKnownError(
          admin.updateEmailTemplate(id, "export function EmailTemplate() { return <p>; }"),
          "EMAIL_RENDERING_ERROR",
          400,
        );
        // The compiler's report, each error with its file, line and column (upstream compiles with esbuild).
        expect(String(syntax.details.error)).toMatch(
          /^Build failed with \d+ errors?:\nvirtual:\/template\.tsx:1:\d+: ERROR: /,
        );
        const loop = await expectKnownError(
          admin.getEmailPreview({
            themeId: false,
            templateTsxSource: "export function EmailTemplate() { for (;;) {} }",
          }),
          "EMAIL_RENDERING_ERROR",
          400,
        );
        expect(String(loop.details.error)).toMatch(/took longer than/);
      },
    );

    it("drafts: create, update, list and delete", async () => {
      const admin = adminApp(getTarget());
      const name = uniqueTag("Draft");
      const { id } = await admin.createEmailDraft({ displayName: name, themeId: DEFAULT_DARK_THEME_ID });
      await admin.updateEmailDraft(id, { tsxSource: TEMPLATE });
      const draft = (await admin.listEmailDrafts()).find((d) => d.id === id);
      expect(draft).toMatchObject({
        displayName: name,
        themeId: DEFAULT_DARK_THEME_ID,
        tsxSource: TEMPLATE,
        sentAt: null,
      });
      await admin.deleteEmailDraft(id);
      expect((await admin.listEmailDrafts()).map((d) => d.id)).not.toContain(id);
    });
  });

  describe("sending", () => {
    owned("sendEmail needs the project's own email server, then delivers a template to the user", async () => {
      const { project, admin, server, client } = await ownedProject(getTarget());
      const signUp = await client().signUpWithCredential({
        email: uniqueEmail("mailee"),
        password: "password-123",
        noVerificationCallback: true,
        noRedirect: true,
      });
      expect(signUp.status).toBe("ok");
      const users = await server().listUsers();
      const user = users[0]!;
      await expectKnownError(
        server().sendEmail({ userIds: [user.id], html: "<p>Hi</p>", subject: "Hi" }),
        "REQUIRES_CUSTOM_EMAIL_SERVER",
        400,
      );
      await project.update({ config: { emailConfig: { type: "standard", ...SMTP } } });
      const { id } = await admin.createEmailTemplate(uniqueTag("Ready"));
      await admin.updateEmailTemplate(id, TEMPLATE);
      await server().sendEmail({ userIds: [user.id], templateId: id, variables: { item: "parcel" } });
      // The list holds every outbox row from the moment it is queued; the subject comes with rendering. An email to a
      // user names the user, whose address is looked up when it is sent.
      const sent = await sentEmailsWhen(admin, (emails) => emails[0]?.subject === "About parcel");
      expect(sent[0]).toMatchObject({
        to: [`User ID: ${user.id}`],
        recipient: `User ID: ${user.id}`,
        subject: "About parcel",
      });
      expect(sent[0]!.sentAt).toBeInstanceOf(Date);
      const stats = await server().getEmailDeliveryStats();
      expect(stats.stats.day.sent).toBeGreaterThanOrEqual(1);
      const fake = providerOf(getTarget());
      if (fake) expect(fake.outbox.latest({ to: user.primaryEmail! })?.text).toContain("your parcel is ready");
    });

    owned("a draft sent to all users is marked sent", async () => {
      const { project, admin, server, client } = await ownedProject(getTarget());
      await client().signUpWithCredential({
        email: uniqueEmail("all"),
        password: "password-123",
        noVerificationCallback: true,
        noRedirect: true,
      });
      await project.update({ config: { emailConfig: { type: "standard", ...SMTP } } });
      const { id } = await admin.createEmailDraft({ displayName: "Announcement", tsxSource: TEMPLATE });
      await server().sendEmail({ allUsers: true, draftId: id, subject: "Announcement" });
      expect((await admin.listEmailDrafts()).find((d) => d.id === id)?.sentAt).toBeInstanceOf(Date);
      expect((await sentEmailsWhen(admin, (emails) => emails[0]?.subject === "Announcement"))[0]?.subject).toBe(
        "Announcement",
      );
    });

    it("sendTestEmail gives ok for a working server and the error message for one that cannot be reached", async () => {
      const admin = adminApp(getTarget());
      const ok = await admin.sendTestEmail({ recipientEmail: uniqueEmail("test"), emailConfig: SMTP });
      expect(ok.status).toBe("ok");
      const failed = await admin.sendTestEmail({
        recipientEmail: uniqueEmail("test"),
        emailConfig: { ...SMTP, host: "smtp.unreachable.invalid" },
      });
      expect(failed.status).toBe("error");
      if (failed.status === "error") expect(failed.error.errorMessage).toContain("smtp.unreachable.invalid");
    });

    it("sendSignInInvitationEmail sends to a trusted callback URL and refuses an untrusted one", async () => {
      const admin = adminApp(getTarget());
      const email = uniqueEmail("invited");
      await admin.sendSignInInvitationEmail(email, "http://localhost:3000/handler/sign-in");
      expect((await admin.listSentEmails()).some((e) => e.to.includes(email))).toBe(true);
      await expectKnownError(
        admin.sendSignInInvitationEmail(email, "https://phishing.example.net/"),
        "REDIRECT_URL_NOT_WHITELISTED",
        400,
      );
    });

    owned("a user who turned a category off gets no email of it (spec §3 notification categories)", async () => {
      const { project, admin, server, client } = await ownedProject(getTarget());
      await project.update({ config: { emailConfig: { type: "standard", ...SMTP } } });
      const app = client();
      const email = uniqueEmail("optout");
      await app.signUpWithCredential({
        email,
        password: "password-123",
        noVerificationCallback: true,
        noRedirect: true,
      });
      const user = await app.getUser({ or: "throw" });
      const marketing = (await user.listNotificationCategories()).find((c) => c.name === "Marketing")!;
      await marketing.setEnabled(false);
      await server().sendEmail({
        userIds: [user.id],
        html: "<p>Sale!</p>",
        subject: "Sale",
        notificationCategoryName: "Marketing",
      });
      await server().sendEmail({
        userIds: [user.id],
        html: "<p>Receipt</p>",
        subject: "Receipt",
        notificationCategoryName: "Transactional",
      });
      // Both are outbox rows (the list shows every state, each rendered before its send is decided); the sale was
      // queued first, so once the receipt is there the sale has had its turn, and only the receipt was delivered.
      const toUser = <E extends { to: string[] }>(emails: E[]) =>
        emails.filter((e) => e.to.includes(`User ID: ${user.id}`));
      const listed = toUser(
        await sentEmailsWhen(admin, (emails) => toUser(emails).some((e) => e.subject === "Receipt")),
      );
      expect(listed.map((e) => e.subject)).toContain("Receipt");
      const fake = providerOf(getTarget());
      if (fake) expect(fake.outbox.list({ to: email }).map((e) => e.subject)).toEqual(["Receipt"]);
    });
  });

  describe("managed email onboarding", () => {
    owned(
      "setup, verification, check and apply switch the project's email server to the managed subdomain, which sends",
      async () => {
        const target = getTarget();
        const { project, admin, server, client } = await ownedProject(target);
        const mail = { subdomain: "mail.example.com", senderLocalPart: "noreply" };
        const domain = await admin.setupManagedEmailProvider(mail);
        expect(domain).toMatchObject({ ...mail, status: "pending_verification" });
        expect(await expectPlainError(admin.applyManagedEmailProvider({ domainId: domain.domainId }), 409)).toBe(
          "Managed domain is not verified yet",
        );
        // The service verifies the domain about a second after setup (without provider credentials, as here).
        if (target.controls) await target.controls.advanceClock(1_000);
        else await new Promise((resolve) => setTimeout(resolve, 1_500));
        expect(await admin.listManagedEmailDomains()).toEqual([{ ...domain, status: "verified" }]);
        expect(await admin.checkManagedEmailStatus({ domainId: domain.domainId, ...mail })).toEqual({
          status: "verified",
        });
        expect(await admin.applyManagedEmailProvider({ domainId: domain.domainId })).toEqual({ status: "applied" });
        const config = (await project.getConfig()) as { emails: { server: Record<string, unknown> } };
        expect(config.emails.server).toMatchObject({
          isShared: false,
          provider: "managed",
          managedSubdomain: "mail.example.com",
          managedSenderLocalPart: "noreply",
          senderEmail: "noreply@mail.example.com",
        });
        expect((await project.app.getProject()).config.emailConfig).toMatchObject({
          type: "standard",
          senderEmail: "noreply@mail.example.com",
        });
        expect(await admin.checkManagedEmailStatus({ domainId: domain.domainId, ...mail })).toEqual({
          status: "applied",
        });
        // A custom email now goes out through the managed server.
        const email = uniqueEmail("managed");
        await client().signUpWithCredential({
          email,
          password: "password-123",
          noVerificationCallback: true,
          noRedirect: true,
        });
        const [user] = await server().listUsers();
        await server().sendEmail({ userIds: [user!.id], html: "<p>Managed</p>", subject: "Managed" });
        expect((await sentEmailsWhen(admin, (emails) => emails[0]?.subject === "Managed"))[0]).toMatchObject({
          to: [`User ID: ${user!.id}`],
          subject: "Managed",
        });
      },
    );

    owned("deletes a domain the project does not send from, and refuses the one it does (409)", async () => {
      const target = getTarget();
      const { admin } = await ownedProject(target);
      const spare = await admin.setupManagedEmailProvider({
        subdomain: "spare.example.com",
        senderLocalPart: "noreply",
      });
      expect(await admin.deleteManagedEmailDomain({ resendDomainId: spare.domainId })).toEqual({ status: "deleted" });
      expect(await admin.listManagedEmailDomains()).toEqual([]);
      const used = await admin.setupManagedEmailProvider({ subdomain: "used.example.com", senderLocalPart: "noreply" });
      if (target.controls) await target.controls.advanceClock(1_000);
      else await new Promise((resolve) => setTimeout(resolve, 1_500));
      await admin.applyManagedEmailProvider({ domainId: used.domainId });
      expect(await expectPlainError(admin.deleteManagedEmailDomain({ resendDomainId: used.domainId }), 409)).toBe(
        "Cannot delete a managed domain that is currently in use for sending email",
      );
    });

    owned("refuses a subdomain that is not a full domain name, and a domain id that is not the project's", async () => {
      const { admin } = await ownedProject(getTarget());
      expect(
        await expectPlainError(
          admin.setupManagedEmailProvider({ subdomain: "localhost", senderLocalPart: "noreply" }),
          400,
        ),
      ).toBe("subdomain must be a fully-qualified domain name like mail.example.com");
      expect(await expectPlainError(admin.applyManagedEmailProvider({ domainId: uniqueTag("nowhere") }), 404)).toBe(
        "Managed domain not found for this project/branch",
      );
      expect(
        await expectPlainError(admin.deleteManagedEmailDomain({ resendDomainId: uniqueTag("nowhere") }), 404),
      ).toBe("Managed domain not found for this project/branch");
    });
  });
}

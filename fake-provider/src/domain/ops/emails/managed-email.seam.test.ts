import { describe, expect, it } from "vitest";
import { INTERNAL_PROJECT_ID } from "@authsim/sdk/contract";
import { asAdmin, opSeam, type OpSeam } from "../../../test-support/op-seam.ts";
import { adminProjectView } from "../../views/projects.ts";
import { outboxStatusOf } from "./email-outbox.ts";
import { listSentEmails, sendCustomEmail } from "./email-sending.ts";
import {
  VERIFICATION_DELAY_MILLIS,
  applyManagedEmail,
  checkManagedEmail,
  deleteManagedEmail,
  listManagedEmailDomains,
  setupManagedEmail,
} from "./managed-email.ts";
import { updateAdminProject } from "../projects/project-admin.ts";
import { renderConfig } from "../config/config-render.ts";

/** Managed email onboarding at the ops' seam: setup, the clock-driven verification, check, list and apply. */

const MAIL = { subdomain: "mail.example.com", sender_local_part: "noreply" };

const setup = (seam: OpSeam, body = MAIL, projectId?: string) =>
  seam.ok(asAdmin(projectId), (ctx) => setupManagedEmail(ctx, ctx.auth.project, body));
const list = (seam: OpSeam, projectId?: string) =>
  seam.ok(asAdmin(projectId), (ctx) => listManagedEmailDomains(ctx, ctx.auth.project));
const check = (seam: OpSeam, body: { domain_id: string; subdomain: string; sender_local_part: string }) =>
  seam.run(asAdmin(), (ctx) => checkManagedEmail(ctx, ctx.auth.project, body));
const apply = (seam: OpSeam, domainId: string, projectId?: string) =>
  seam.run(asAdmin(projectId), (ctx) => applyManagedEmail(ctx, ctx.auth.project, { domain_id: domainId }));
const emailServer = async (seam: OpSeam) => {
  const config = await seam.ok((ctx) => renderConfig(ctx, ctx.tables.projects.get(seam.project().id)!));
  return (config.emails as { server: Record<string, unknown> }).server;
};

describe("setup", () => {
  it("tracks the subdomain (stored lower case without trailing dots) as pending verification, with its name servers", async () => {
    const seam = opSeam();
    const domain = await setup(seam, { subdomain: " Mail.Example.COM. ", sender_local_part: "No.Reply+x" });
    expect(domain).toEqual({
      domain_id: expect.stringMatching(/^managed_mock_[\w-]+_mail_example_com$/),
      subdomain: "mail.example.com",
      sender_local_part: "No.Reply+x",
      name_server_records: ["ns1.dnsimple.com", "ns2.dnsimple.com"],
      status: "pending_verification",
    });
    expect((await list(seam)).items).toEqual([domain]);
    // Another project's list does not show it.
    expect((await list(seam, INTERNAL_PROJECT_ID)).items).toEqual([]);
  });

  it("becomes verified by the clock, a second after setup, and not before", async () => {
    const seam = opSeam();
    const { domain_id } = await setup(seam);
    seam.clock.advance(VERIFICATION_DELAY_MILLIS - 1);
    expect(await check(seam, { domain_id, ...MAIL })).toEqual({ ok: true, value: { status: "pending_verification" } });
    seam.clock.advance(1);
    expect(await check(seam, { domain_id, ...MAIL })).toEqual({ ok: true, value: { status: "verified" } });
    expect((await list(seam)).items.map((d) => d.status)).toEqual(["verified"]);
  });

  it("answers the domain already tracked for the subdomain, as it is now, and refuses it with another sender (409)", async () => {
    const seam = opSeam();
    const first = await setup(seam);
    seam.clock.advance(VERIFICATION_DELAY_MILLIS);
    expect(await setup(seam, { ...MAIL, subdomain: "MAIL.example.com" })).toEqual({ ...first, status: "verified" });
    expect(seam.tables.managedEmailDomains.size).toBe(1);
    const refused = await seam.refuses(
      asAdmin(),
      (ctx) => setupManagedEmail(ctx, ctx.auth.project, { ...MAIL, sender_local_part: "hello" }),
      409,
    );
    expect(refused.message).toBe("This subdomain is already tracked with a different sender local part");
  });

  it("refuses a name that is not a fully-qualified domain name, then a bad sender local part (400), writing nothing", async () => {
    const seam = opSeam();
    const badNames = [
      "localhost",
      "mail..example.com",
      "-mail.example.com",
      "mail-.example.com",
      "mail.example.c",
      "mail_x.example.com",
      `${"a".repeat(64)}.example.com`,
      `${"abc.".repeat(63)}com`,
      "",
    ];
    for (const subdomain of badNames) {
      const refused = await seam.refuses(
        asAdmin(),
        (ctx) => setupManagedEmail(ctx, ctx.auth.project, { subdomain, sender_local_part: "no reply" }),
        400,
      );
      expect(refused.message).toBe("subdomain must be a fully-qualified domain name like mail.example.com");
    }
    for (const sender of ["no reply", "a@b", "", "ünïcode"]) {
      const refused = await seam.refuses(
        asAdmin(),
        (ctx) => setupManagedEmail(ctx, ctx.auth.project, { ...MAIL, sender_local_part: sender }),
        400,
      );
      expect(refused.message).toBe("sender_local_part is invalid");
    }
    // The longest labels and names that pass.
    await setup(seam, { subdomain: `${"a".repeat(63)}.${"b".repeat(63)}`, sender_local_part: "a_b%c" });
  });
});

describe("check", () => {
  it("needs the id, subdomain and sender of one of the project's domains (404 otherwise)", async () => {
    const seam = opSeam();
    const { domain_id } = await setup(seam);
    const theirs = await setup(seam, MAIL, INTERNAL_PROJECT_ID);
    for (const body of [
      { domain_id: "managed_mock_nothing", ...MAIL },
      { domain_id, ...MAIL, sender_local_part: "other" },
      { domain_id, ...MAIL, subdomain: "post.example.com" },
      { domain_id: theirs.domain_id, ...MAIL },
    ]) {
      const refused = await seam.refuses(asAdmin(), (ctx) => checkManagedEmail(ctx, ctx.auth.project, body), 404);
      expect(refused.message).toBe("Managed domain setup not found for this project/branch");
    }
    // Its values are checked as setup checks them first.
    await seam.refuses(
      asAdmin(),
      (ctx) => checkManagedEmail(ctx, ctx.auth.project, { domain_id, ...MAIL, subdomain: "nope" }),
      400,
    );
  });
});

describe("apply", () => {
  it("refuses a domain not yet verified (409), and one that is not the project's (404), changing nothing", async () => {
    const seam = opSeam();
    const { domain_id } = await setup(seam);
    const theirs = await setup(seam, MAIL, INTERNAL_PROJECT_ID);
    expect(
      (await seam.refuses(asAdmin(), (ctx) => applyManagedEmail(ctx, ctx.auth.project, { domain_id }), 409)).message,
    ).toBe("Managed domain is not verified yet");
    seam.clock.advance(VERIFICATION_DELAY_MILLIS);
    for (const id of [theirs.domain_id, "managed_mock_nothing"]) {
      expect(
        (await seam.refuses(asAdmin(), (ctx) => applyManagedEmail(ctx, ctx.auth.project, { domain_id: id }), 404))
          .message,
      ).toBe("Managed domain not found for this project/branch");
    }
    expect(await emailServer(seam)).toEqual({ isShared: true, provider: "smtp" });
  });

  it("makes the verified domain the project's email server: config keys, the admin view, and applied status", async () => {
    const seam = opSeam();
    const projectId = seam.project().id;
    const { domain_id } = await setup(seam);
    seam.clock.advance(VERIFICATION_DELAY_MILLIS);
    expect(await apply(seam, domain_id)).toEqual({ ok: true, value: { status: "applied" } });
    expect(await emailServer(seam)).toEqual({
      isShared: false,
      provider: "managed",
      password: `managed_mock_key_${projectId}`,
      senderName: seam.project().displayName,
      senderEmail: "noreply@mail.example.com",
      managedSubdomain: "mail.example.com",
      managedSenderLocalPart: "noreply",
    });
    expect(adminProjectView(seam.project()).config.email_config).toEqual({
      type: "standard",
      host: "smtp.resend.com",
      port: 465,
      username: "resend",
      password: `managed_mock_key_${projectId}`,
      sender_name: seam.project().displayName,
      sender_email: "noreply@mail.example.com",
    });
    expect((await list(seam)).items.map((d) => d.status)).toEqual(["applied"]);
    // Applying it again is a no-op that still answers applied.
    const before = seam.snapshot();
    expect(await apply(seam, domain_id)).toEqual({ ok: true, value: { status: "applied" } });
    expect(seam.snapshot()).toEqual(before);
  });

  it("applying a second domain demotes the first to verified and sends from the second", async () => {
    const seam = opSeam();
    const first = await setup(seam);
    const second = await setup(seam, { subdomain: "post.example.org", sender_local_part: "hello" });
    seam.clock.advance(VERIFICATION_DELAY_MILLIS);
    await apply(seam, first.domain_id);
    seam.clock.advance(10);
    await apply(seam, second.domain_id);
    // The most recently changed first.
    expect((await list(seam)).items.map((d) => [d.subdomain, d.status])).toEqual([
      ["post.example.org", "applied"],
      ["mail.example.com", "verified"],
    ]);
    expect(await emailServer(seam)).toMatchObject({
      provider: "managed",
      senderEmail: "hello@post.example.org",
      managedSubdomain: "post.example.org",
      managedSenderLocalPart: "hello",
    });
  });

  it("a standard server set later through the project update replaces the managed one, as upstream's update writes provider smtp", async () => {
    const seam = opSeam();
    const { domain_id } = await setup(seam);
    seam.clock.advance(VERIFICATION_DELAY_MILLIS);
    await apply(seam, domain_id);
    const smtp = {
      type: "standard" as const,
      host: "smtp.example.com",
      port: 587,
      username: "u",
      password: "p",
      sender_name: "Acme",
      sender_email: "hi@example.com",
    };
    await seam.ok((ctx) =>
      updateAdminProject(ctx, ctx.tables.projects.get(seam.project().id)!, { config: { email_config: smtp } }),
    );
    expect(await emailServer(seam)).toEqual({
      isShared: false,
      provider: "smtp",
      host: "smtp.example.com",
      port: 587,
      username: "u",
      password: "p",
      senderName: "Acme",
      senderEmail: "hi@example.com",
    });
    expect(adminProjectView(seam.project()).config.email_config).toEqual(smtp);
  });

  it("emails still go to the outbox once the managed server is applied (custom emails need no other server)", async () => {
    const seam = opSeam();
    const user = await seam.addUser({ primary_email: "reader@example.com", primary_email_verified: true });
    const { domain_id } = await setup(seam);
    seam.clock.advance(VERIFICATION_DELAY_MILLIS);
    await apply(seam, domain_id);
    await seam.ok((ctx) =>
      sendCustomEmail(ctx, ctx.tables.projects.get(seam.project().id)!, {
        user_ids: [user.id],
        html: "<p>Hello</p>",
        subject: "Hi",
      }),
    );
    const [sent] = await seam.ok((ctx) => listSentEmails(ctx, seam.project().id));
    expect(sent).toMatchObject({ to: ["reader@example.com"], subject: "Hi" });
    expect(outboxStatusOf(sent!, seam.clock.now()).status).toBe("sent");
  });
});

describe("delete", () => {
  const remove = (seam: OpSeam, id: string) =>
    seam.run(asAdmin(), (ctx) => deleteManagedEmail(ctx, ctx.auth.project, { resend_domain_id: id }));

  it("stops tracking a domain the server does not send from; setting it up again starts over", async () => {
    const seam = opSeam();
    const { domain_id } = await setup(seam);
    seam.clock.advance(VERIFICATION_DELAY_MILLIS);
    expect(await remove(seam, domain_id)).toEqual({ ok: true, value: { status: "deleted" } });
    expect((await list(seam)).items).toEqual([]);
    expect((await setup(seam)).status).toBe("pending_verification");
  });

  it("refuses the domain the server sends from (409) until the server is switched away; a replaced domain may go", async () => {
    const seam = opSeam();
    const first = await setup(seam);
    const second = await setup(seam, { subdomain: "post.example.org", sender_local_part: "hello" });
    seam.clock.advance(VERIFICATION_DELAY_MILLIS);
    await apply(seam, first.domain_id);
    const refused = await seam.refuses(
      asAdmin(),
      (ctx) => deleteManagedEmail(ctx, ctx.auth.project, { resend_domain_id: first.domain_id }),
      409,
    );
    expect(refused.message).toBe("Cannot delete a managed domain that is currently in use for sending email");
    await apply(seam, second.domain_id);
    expect(await remove(seam, first.domain_id)).toEqual({ ok: true, value: { status: "deleted" } });
    await seam.refuses(
      asAdmin(),
      (ctx) => deleteManagedEmail(ctx, ctx.auth.project, { resend_domain_id: second.domain_id }),
      409,
    );
    const smtp = {
      type: "standard" as const,
      host: "smtp.example.com",
      port: 587,
      username: "u",
      password: "p",
      sender_name: "Acme",
      sender_email: "hi@example.com",
    };
    await seam.ok((ctx) =>
      updateAdminProject(ctx, ctx.tables.projects.get(seam.project().id)!, { config: { email_config: smtp } }),
    );
    expect(await remove(seam, second.domain_id)).toEqual({ ok: true, value: { status: "deleted" } });
    expect((await list(seam)).items).toEqual([]);
  });

  it("answers 404 for an unknown domain and for another project's", async () => {
    const seam = opSeam();
    const theirs = await setup(seam, MAIL, INTERNAL_PROJECT_ID);
    for (const id of ["does-not-exist", theirs.domain_id]) {
      const refused = await seam.refuses(
        asAdmin(),
        (ctx) => deleteManagedEmail(ctx, ctx.auth.project, { resend_domain_id: id }),
        404,
      );
      expect(refused.message).toBe("Managed domain not found for this project/branch");
    }
  });
});

import { describe, expect, it } from "vitest";
import { opSeam } from "../../../test-support/op-seam.ts";
import { sendSignInInvitation, sendTestEmail } from "./admin-emails.ts";
import { listSentEmails } from "./email-sending.ts";

/** The admin's email calls (spec §4 "Test email send returns success or an error message", §5, §7 Admin), at the ops' seam. */

const smtp = (host: string) => ({
  host,
  port: 587,
  username: "u",
  password: "p",
  sender_email: "noreply@example.com",
  sender_name: "Acme",
});

describe("sendTestEmail", () => {
  it("delivers through a server whose host resolves: the email is in the project's sent emails", async () => {
    const seam = opSeam();
    expect(
      await seam.ok((ctx) =>
        sendTestEmail(ctx, seam.project(), {
          recipient_email: "ops@example.com",
          email_config: smtp("smtp.example.com"),
        }),
      ),
    ).toEqual({ success: true });
    const [sent] = await seam.ok((ctx) => listSentEmails(ctx, seam.project().id));
    expect(sent).toMatchObject({ to: ["ops@example.com"], subject: "Test email from Stack Auth" });
    expect(sent!.text).toContain("smtp.example.com:587 as Acme <noreply@example.com>");
  });

  it("answers a host that cannot resolve with the connection's error message, sending nothing", async () => {
    const seam = opSeam();
    const before = seam.snapshot();
    for (const host of ["mail.invalid", "smtp.example.123"]) {
      const out = await seam.ok((ctx) =>
        sendTestEmail(ctx, seam.project(), { recipient_email: "ops@example.com", email_config: smtp(host) }),
      );
      expect(out).toEqual({
        success: false,
        error_message: `Failed to connect to the email server ${host}:587: getaddrinfo ENOTFOUND ${host}`,
      });
    }
    expect(seam.snapshot()).toEqual(before);
  });
});

describe("sendSignInInvitation", () => {
  it("sends the invitation with the callback link", async () => {
    const seam = opSeam();
    await seam.ok((ctx) =>
      sendSignInInvitation(ctx, seam.project(), {
        email: "new@example.com",
        callback_url: "http://localhost:3000/handler/sign-in",
      }),
    );
    const [sent] = await seam.ok((ctx) => listSentEmails(ctx, seam.project().id));
    expect(sent).toMatchObject({
      to: ["new@example.com"],
      kind: "sign_in_invitation",
      link: "http://localhost:3000/handler/sign-in",
    });
  });

  it("refuses a callback URL on an untrusted domain (REDIRECT_URL_NOT_WHITELISTED), sending nothing", async () => {
    const seam = opSeam();
    await seam.refuses(
      (ctx) =>
        sendSignInInvitation(ctx, seam.project(), {
          email: "new@example.com",
          callback_url: "https://evil.example.com/sign-in",
        }),
      "REDIRECT_URL_NOT_WHITELISTED",
    );
  });
});

import type { SentEmailRecord } from "../store/records.ts";

/**
 * The built-in emails the provider sends. Plain, readable HTML and text (the TSX themes and templates of the email
 * issue replace the HTML later); what tests rely on is the recipient, the kind, the code and the link.
 */
export type EmailKind = Exclude<SentEmailRecord["kind"], "custom">;

export interface EmailContent {
  subject: string;
  html: string;
  text: string;
}

const escape = (s: string) =>
  s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

function layout(projectName: string, lines: string[], link: string | null, linkLabel: string): string {
  const body = lines.map((l) => `<p>${escape(l)}</p>`).join("");
  const button = link ? `<p><a href="${escape(link)}">${escape(linkLabel)}</a></p>` : "";
  return `<!doctype html><html><body><h1>${escape(projectName)}</h1>${body}${button}</body></html>`;
}

export function renderEmail(
  kind: EmailKind,
  v: { projectName: string; link: string | null; otp?: string | null; teamName?: string },
): EmailContent {
  switch (kind) {
    case "email_verification":
      return {
        subject: `Verify your email at ${v.projectName}`,
        text: `Verify your email address by opening this link:\n${v.link ?? ""}`,
        html: layout(
          v.projectName,
          ["Verify your email address by clicking the link below."],
          v.link,
          "Verify my email",
        ),
      };
    case "password_reset":
      return {
        subject: `Reset your password at ${v.projectName}`,
        text: `Reset your password by opening this link:\n${v.link ?? ""}\nIf you did not ask for this, ignore this email.`,
        html: layout(
          v.projectName,
          ["Reset your password by clicking the link below.", "If you did not ask for this, ignore this email."],
          v.link,
          "Reset my password",
        ),
      };
    case "magic_link":
      return {
        subject: `Sign in to ${v.projectName}: your code is ${v.otp ?? ""}`,
        text: `Your sign-in code is ${v.otp ?? ""}.\nOr sign in by opening this link:\n${v.link ?? ""}`,
        // The code stands alone in its paragraph, as in the real service's sign-in email (mail readers and its e2e
        // helpers pick it out as the whole text of a <p>).
        html: layout(
          v.projectName,
          ["Your sign-in code is:", v.otp ?? "", "Or sign in by clicking the link below."],
          v.link,
          "Sign in",
        ),
      };
    case "team_invitation":
      return {
        subject: `You have been invited to join ${v.teamName ?? "a team"} on ${v.projectName}`,
        text: `You have been invited to join ${v.teamName ?? "a team"}. Accept by opening this link:\n${v.link ?? ""}`,
        html: layout(
          v.projectName,
          [`You have been invited to join ${v.teamName ?? "a team"}.`],
          v.link,
          "Join the team",
        ),
      };
    case "sign_in_invitation":
      return {
        subject: `You have been invited to ${v.projectName}`,
        text: `You have been invited to sign in to ${v.projectName}:\n${v.link ?? ""}`,
        html: layout(v.projectName, [`You have been invited to sign in to ${v.projectName}.`], v.link, "Sign in"),
      };
  }
}

/** A callback URL with the code appended as `?code=` (protocol.md §7.2–7.3: the link is `callback_url?code=<C>`). */
export function linkWithCode(callbackUrl: string, code: string): string {
  const url = new URL(callbackUrl);
  url.searchParams.set("code", code);
  return url.toString();
}

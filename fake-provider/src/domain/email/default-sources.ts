/**
 * The templates every project starts with (protocol.md §5.12): real TSX modules, rendered by
 * domain/email/render/sandbox.ts like any an admin writes. The default themes are in default-themes.ts, re-exported
 * here so that this stays the one place callers import the defaults from.
 */

export {
  DEFAULT_COLORFUL_THEME_ID,
  DEFAULT_DARK_THEME_ID,
  DEFAULT_THEME_ID,
  defaultThemes,
  EMPTY_THEME_SOURCE,
  LEGACY_THEME_IDS,
} from "./default-themes.ts";

/** The real service's fixed ids of its default templates (its config defaults use them). */
export const DEFAULT_TEMPLATE_IDS = {
  email_verification: "e7d009ce-8d47-4528-b245-5bf119f2ffa3",
  password_reset: "a70fb3a4-56c1-4e42-af25-49d25603abd0",
  magic_link: "822687fe-8d0a-4467-a0d1-416b6e639478",
  team_invitation: "e84de395-2076-4831-9c19-8e9a96a868e4",
  sign_in_invitation: "066dd73c-36da-4fd0-b6d6-ebf87683f8bc",
  payment_receipt: "70372aee-0441-4d80-974c-2e858e40123a",
  payment_failed: "f64b1afe-27ec-4a28-a277-7178f3261f9a",
} as const;

/**
 * The default templates. Like the default themes, they render the HTML of the real default templates (whose Tailwind
 * classes the real default theme inlines) with inline styles of our own; their variables, subjects, sample variables
 * and wording are the real ones, as mail readers and the real service's tests see them.
 */
const SANS = `ui-sans-serif,system-ui,sans-serif,"Apple Color Emoji","Segoe UI Emoji","Segoe UI Symbol","Noto Color Emoji"`;
const MONO = `ui-monospace,SFMono-Regular,Menlo,Monaco,Consolas,"Liberation Mono","Courier New",monospace`;

/** A style object literal from CSS declarations written `name: value` (values with commas or quotes are fine). */
const style = (css: string) =>
  `{{ ${css
    .split(";")
    .filter((d) => d.trim() !== "")
    .map((d) => {
      const at = d.indexOf(":");
      const name = d
        .slice(0, at)
        .trim()
        .replace(/-([a-z])/g, (_m, c: string) => c.toUpperCase());
      return `${name}: ${JSON.stringify(d.slice(at + 1).trim())}`;
    })
    .join(", ")} }}`;

const header = (schema: string) => `import { type } from "arktype";
import { Button, Section, Hr, Heading } from "@react-email/components";
import { Subject, NotificationCategory, type Props } from "@stackframe/emails";

export const variablesSchema = type(${schema});
`;

const hi = `Hi{user.displayName ? ", " + user.displayName : ""}`;
const ignoreIt = "If you were not expecting this email, you can safely ignore it.";
const hrInDiv = (css: string, hrCss = "opacity:20%") =>
  `<div style=${style(css)}>
          <Hr style=${style(hrCss)} />
        </div>`;
const button = (href: string, css: string, label: string) =>
  `<Button href={${href}} style=${style(css)}>
            ${label}
          </Button>`;
const wrapped = (css: string, sectionCss: string | null, body: string) => `<div style=${style(css)}>
      <Section${sectionCss ? ` style=${style(sectionCss)}` : ""}>
        ${body}
      </Section>
    </div>`;
const template = (parts: { schema: string; subject: string; props: string; body: string; preview: string }) =>
  `${header(parts.schema)}
export function EmailTemplate({ ${parts.props} }: Props<typeof variablesSchema.infer>) {
  return (
    <>
      <Subject value={${parts.subject}} />
      <NotificationCategory value="Transactional" />
      ${parts.body}
    </>
  );
}

EmailTemplate.PreviewVariables = ${parts.preview};
`;

const page = `font-family:${SANS};font-size:1rem;line-height:1.5;font-weight:400;letter-spacing:0.15008px;margin:0rem;padding-bottom:2rem;padding-top:2rem;width:100%;min-height:100%`;
const sm = `font-size:0.875rem;line-height:1.4285714285714286;font-family:${SANS};font-weight:400`;
const xs = `font-size:0.75rem;line-height:1.3333333333333333;font-family:${SANS};font-weight:400`;
const h3px = `font-family:${SANS};font-weight:700;font-size:20px;text-align:center;padding-bottom:1rem;padding-top:1rem;padding-right:1.5rem;padding-left:1.5rem;margin:0rem`;
const h3xl = `font-family:${SANS};font-weight:700;font-size:1.25rem;line-height:1.4;text-align:center`;
const grey = "background-color:rgb(240,240,240)";
const buttonPx = `color:rgb(0,0,0);font-family:${SANS};font-weight:700;font-size:14px;${grey};border-radius:4px;padding-bottom:12px;padding-top:12px;padding-right:20px;padding-left:20px;text-decoration-line:none;border-style:solid;border-width:0px`;
const buttonSm = (background: string, radius: string, padding: string, border: string) =>
  `line-height:1.4285714285714286;color:rgb(0,0,0);font-size:0.875rem;font-family:${SANS};font-weight:700;${background};border-radius:${radius};${padding};text-decoration-line:none;${border}`;
const padY3 = "padding-bottom:12px;padding-top:12px;padding-right:20px;padding-left:20px";
const padX5 = "padding-right:20px;padding-left:20px;padding-bottom:12px;padding-top:12px";
const px6py4 = "padding-right:1.5rem;padding-left:1.5rem;padding-bottom:1rem;padding-top:1rem";
const centreX6Y3 =
  "text-align:center;padding-right:1.5rem;padding-left:1.5rem;padding-bottom:0.75rem;padding-top:0.75rem";

const emailVerification = template({
  schema: `{ emailVerificationLink: "string" }`,
  subject: "`Verify your email at ${project.displayName}`",
  props: "user, project, variables",
  body: wrapped(
    page,
    null,
    `<Heading as="h3" style=${style(h3px)}>
          Verify your email at {project.displayName}
        </Heading>
        <p style=${style(`font-family:${SANS};font-weight:400;font-size:14px;text-align:center;padding-top:0.5rem;padding-right:1.5rem;padding-left:1.5rem;padding-bottom:1rem;margin:0rem;opacity:80%`)}>
          ${hi}! Please click on the following button to verify your email.
        </p>
        <div style=${style("text-align:center;padding-bottom:0.75rem;padding-top:0.75rem;padding-right:1.5rem;padding-left:1.5rem")}>
          ${button("variables.emailVerificationLink", buttonPx, "Verify my email")}
        </div>
        ${hrInDiv("padding-bottom:1rem;padding-top:1rem;padding-right:1.5rem;padding-left:1.5rem")}
        <p style=${style(`font-family:${SANS};font-weight:400;font-size:12px;text-align:center;padding-top:0.25rem;padding-right:1.5rem;padding-left:1.5rem;padding-bottom:1.5rem;margin:0rem;opacity:60%`)}>
          ${ignoreIt}
        </p>`,
  ),
  preview: `{ emailVerificationLink: "#" }`,
});

const passwordReset = template({
  schema: `{ passwordResetLink: "string" }`,
  subject: `"Reset your password at " + project.displayName`,
  props: "user, project, variables",
  body: wrapped(
    `font-family:${SANS};font-size:1rem;line-height:1.625;font-weight:400;letter-spacing:-0.025em;padding-bottom:2rem;padding-top:2rem;width:100%;min-height:100%`,
    null,
    `<Heading as="h3" style=${style(h3px)}>
          Reset your password at {project.displayName}
        </Heading>
        <p style=${style(`${sm};text-align:center;padding-top:0.5rem;padding-bottom:1rem;padding-right:1.5rem;padding-left:1.5rem;margin:0rem;opacity:80%`)}>
          ${hi}! Please click on the following button to start the password reset process.
        </p>
        <div style=${style(centreX6Y3)}>
          <Button href={variables.passwordResetLink} target="_blank" style=${style(buttonSm(grey, "4px", padY3, "border-style:none"))}>
            Reset my password
          </Button>
        </div>
        ${hrInDiv("padding-right:1.5rem;padding-left:1.5rem;padding-bottom:1rem;padding-top:1rem")}
        <p style=${style(`${xs};text-align:center;padding-top:0.25rem;padding-bottom:1.5rem;padding-right:1.5rem;padding-left:1.5rem;margin:0rem;opacity:60%`)}>
          ${ignoreIt}
        </p>`,
  ),
  preview: `{ passwordResetLink: "#" }`,
});

const magicLink = template({
  schema: `{ magicLink: "string", otp: "string" }`,
  subject: `"Sign in to " + project.displayName + ": Your code is " + variables.otp`,
  props: "user, project, variables",
  body: wrapped(
    page.replace("line-height:1.5;", "line-height:1.5rem;"),
    "margin-right:auto;margin-left:auto",
    `<Heading as="h3" style=${style(`${h3xl};${px6py4};margin:0rem`)}>
          Sign in to {project.displayName}
        </Heading>
        <p style=${style(`${sm};text-align:center;${px6py4};margin:0rem;opacity:80%`)}>
          ${hi}! This is your one-time-password for signing in:
        </p>
        <p style=${style(`font-size:1.5rem;line-height:1.3333333333333333;font-family:${MONO};font-weight:700;text-align:center;${px6py4};margin:0rem`)}>
          {variables.otp}
        </p>
        <p style=${style(`${sm};text-align:center;${px6py4};margin:0rem`)}>
          Or you can click on{" "}
          <a href={variables.magicLink} rel="noopener noreferrer" style=${style("color:rgb(21,93,252);text-decoration-line:underline")}>
            this link
          </a>{" "}
          to sign in
        </p>
        <Hr style=${style(`${px6py4};opacity:20%`)} />
        <p style=${style(`${xs};text-align:center;padding-right:1.5rem;padding-left:1.5rem;padding-top:0.25rem;padding-bottom:1.5rem;margin:0rem;opacity:60%`)}>
          ${ignoreIt}
        </p>`,
  ),
  preview: `{ magicLink: "#", otp: "3SLSWZ" }`,
});

const teamInvitation = template({
  schema: `{ teamDisplayName: "string", teamInvitationLink: "string" }`,
  subject: `"You have been invited to join " + variables.teamDisplayName`,
  props: "user, variables",
  body: wrapped(
    page,
    "margin-right:auto;margin-left:auto;max-width:32rem",
    `<Heading as="h3" style=${style(`${h3xl};padding-right:1.5rem;padding-left:1.5rem;padding-top:2rem;margin:0rem`)}>
          You are invited to {variables.teamDisplayName}
        </Heading>
        <p style=${style(`${sm};text-align:center;padding-right:1.5rem;padding-left:1.5rem;padding-top:0.5rem;padding-bottom:1rem;margin:0rem;opacity:80%`)}>
          ${hi}! Please click the button below to join the team {variables.teamDisplayName}
        </p>
        <div style=${style(centreX6Y3)}>
          ${button("variables.teamInvitationLink", buttonSm(grey, "0.375rem", padX5, "border-style:solid;border-width:0px"), "Join team")}
        </div>
        ${hrInDiv(px6py4)}
        <p style=${style(`${xs};text-align:center;padding-right:1.5rem;padding-left:1.5rem;padding-bottom:1.5rem;padding-top:0.25rem;margin:0rem;opacity:60%`)}>
          ${ignoreIt}
        </p>`,
  ),
  preview: `{ teamDisplayName: "My Team", teamInvitationLink: "#" }`,
});

const signInInvitation = template({
  schema: `{ signInInvitationLink: "string", teamDisplayName: "string" }`,
  subject: `"You have been invited to sign in to " + project.displayName`,
  props: "user, project, variables",
  body: wrapped(
    `font-family:${SANS};font-size:1rem;line-height:1.5;font-weight:400;width:100%;min-height:100%;margin:0rem;padding-bottom:2rem;padding-top:2rem`,
    null,
    `<Heading as="h3" style=${style(`${h3xl};padding-top:2rem;padding-right:1.5rem;padding-left:1.5rem;margin:0rem`)}>
          You are invited to sign in to {variables.teamDisplayName}
        </Heading>
        <p style=${style(`${sm};text-align:center;padding-top:0.5rem;padding-bottom:1rem;padding-right:1.5rem;padding-left:1.5rem;margin:0rem;opacity:80%`)}>
          ${hi}! Please click on the following link to sign in to your account
        </p>
        <div style=${style(centreX6Y3)}>
          ${button("variables.signInInvitationLink", buttonSm("background-color:rgb(229,231,235)", "0.375rem", padY3, "border-style:none"), "Sign in")}
        </div>
        ${hrInDiv(px6py4)}
        <p style=${style(`${xs};text-align:center;padding-top:0.25rem;padding-bottom:1.5rem;padding-right:1.5rem;padding-left:1.5rem;margin:0rem;opacity:60%`)}>
          ${ignoreIt}
        </p>`,
  ),
  preview: `{ signInInvitationLink: "#", teamDisplayName: "My Team" }`,
});

const paymentPage = `background-color:rgb(255,255,255);color:rgb(36,36,36);${page}`;
const paymentHeading = `color:rgb(0,0,0);${h3px}`;
const paymentLead = `color:rgb(71,72,73);font-family:${SANS};font-weight:400;font-size:14px;text-align:center;padding-top:0.5rem;padding-right:1.5rem;padding-left:1.5rem;padding-bottom:1rem;margin:0rem`;
const paymentHr = hrInDiv("padding-bottom:1rem;padding-top:1rem;padding-right:1.5rem;padding-left:1.5rem", "");

const paymentReceipt = template({
  schema: `{ productName: "string", quantity: "number", amount: "string", receiptLink: "string?" }`,
  subject: `"Your receipt from " + project.displayName`,
  props: "user, project, variables",
  body: wrapped(
    paymentPage,
    "background-color:rgb(255,255,255)",
    `<h3 style=${style(paymentHeading)}>
          Thanks for your purchase
        </h3>
        <p style=${style(paymentLead)}>
          ${hi}! Your payment for {variables.productName} is complete.
        </p>
        <div style=${style("padding-right:1.5rem;padding-left:1.5rem")}>
          <p style=${style(`color:rgb(0,0,0);font-family:${SANS};font-weight:700;font-size:16px;text-align:center;margin:0rem`)}>
            Total paid: {variables.amount}
          </p>
          <p style=${style(`color:rgb(71,72,73);font-family:${SANS};font-size:13px;text-align:center;margin-top:0.5rem;margin-bottom:0rem`)}>
            Quantity: {variables.quantity}
          </p>
        </div>
        {variables.receiptLink ? (
          <div style=${style("text-align:center;padding-bottom:1rem;padding-top:1rem;padding-right:1.5rem;padding-left:1.5rem")}>
            <Button href={variables.receiptLink} target="_blank" style=${style(buttonPx)}>
              View receipt
            </Button>
          </div>
        ) : null}
        ${paymentHr}`,
  ),
  preview: `{ productName: "Pro Plan", quantity: 1, amount: "$29.00", receiptLink: "https://example.com/receipt" }`,
});

const paymentFailed = template({
  schema: `{ productName: "string", amount: "string", invoiceUrl: "string?", failureReason: "string?" }`,
  subject: `"Payment failed for " + project.displayName`,
  props: "user, project, variables",
  body: wrapped(
    paymentPage,
    "background-color:rgb(255,255,255)",
    `<h3 style=${style(paymentHeading)}>
          We couldn't process your payment
        </h3>
        <p style=${style(paymentLead)}>
          ${hi}! Your payment for {variables.productName} ({variables.amount}) did not go through.
        </p>
        {variables.failureReason ? (
          <p style=${style(`color:rgb(138,139,139);font-family:${SANS};font-size:12px;text-align:center;padding-right:1.5rem;padding-left:1.5rem;padding-bottom:0.5rem;margin:0rem`)}>
            Reason: {variables.failureReason}
          </p>
        ) : null}
        {variables.invoiceUrl ? (
          <div style=${style("text-align:center;padding-bottom:0.75rem;padding-top:0.75rem;padding-right:1.5rem;padding-left:1.5rem")}>
            <Button href={variables.invoiceUrl} target="_blank" style=${style(buttonPx)}>
              View invoice
            </Button>
          </div>
        ) : null}
        ${paymentHr}
        <p style=${style(`color:rgb(71,72,73);font-family:${SANS};font-weight:400;font-size:12px;text-align:center;padding-top:0.25rem;padding-right:1.5rem;padding-left:1.5rem;padding-bottom:1.5rem;margin:0rem`)}>
          Please update your payment details to avoid service interruption.
        </p>`,
  ),
  preview: `{ productName: "Pro Plan", amount: "$29.00", invoiceUrl: "https://example.com/billing", failureReason: "Your card was declined" }`,
});

export const defaultTemplates: readonly { id: string; displayName: string; tsxSource: string }[] = [
  { id: DEFAULT_TEMPLATE_IDS.email_verification, displayName: "Email Verification", tsxSource: emailVerification },
  { id: DEFAULT_TEMPLATE_IDS.password_reset, displayName: "Password Reset", tsxSource: passwordReset },
  { id: DEFAULT_TEMPLATE_IDS.magic_link, displayName: "Magic Link/OTP", tsxSource: magicLink },
  { id: DEFAULT_TEMPLATE_IDS.team_invitation, displayName: "Team Invitation", tsxSource: teamInvitation },
  { id: DEFAULT_TEMPLATE_IDS.sign_in_invitation, displayName: "Sign In Invitation", tsxSource: signInInvitation },
  { id: DEFAULT_TEMPLATE_IDS.payment_receipt, displayName: "Payment Receipt", tsxSource: paymentReceipt },
  { id: DEFAULT_TEMPLATE_IDS.payment_failed, displayName: "Payment Failed", tsxSource: paymentFailed },
];

/** What a new template or draft starts as: a subject and a paragraph to edit. */
export const NEW_TEMPLATE_SOURCE = `import { Text } from "@react-email/components";
import { Subject, NotificationCategory } from "@stackframe/emails";

export function EmailTemplate({ user, project }: { user: { displayName: string | null }; project: { displayName: string } }) {
  return (
    <>
      <Subject value={\`A message from \${project.displayName}\`} />
      <NotificationCategory value="Transactional" />
      <Text>Hi{user.displayName ? \`, \${user.displayName}\` : ""}! Edit this template to say what you need.</Text>
    </>
  );
}
`;

/** The template a theme is checked against when it is saved. */
export const SAMPLE_CONTENT_SOURCE = `export function EmailTemplate() { return <p>Sample content</p>; }`;

/**
 * The themes and templates every project starts with (protocol.md §5.12): real TSX modules, rendered by
 * domain/email/render/sandbox.ts like any an admin writes. Theme ids are the values of the project's `email_theme` setting.
 */

/** The real service's fixed ids of its default themes and templates (its config defaults use them). */
export const DEFAULT_THEME_ID = "1df07ae6-abf3-4a40-83a5-a1a2cbe336ac";
export const DEFAULT_DARK_THEME_ID = "a0172b5d-cff0-463b-83bb-85124697373a";
export const DEFAULT_COLORFUL_THEME_ID = "c7e2d94f-8a1b-4e6d-b3f5-9d0a2e7c1b8f";
/** Ids earlier versions of authsim gave the two default themes; a stored project or a caller may still name them. */
export const LEGACY_THEME_IDS: Readonly<Record<string, string>> = {
  "default-light": DEFAULT_THEME_ID,
  "default-dark": DEFAULT_DARK_THEME_ID,
};
/**
 * What "no theme" (theme_id false) renders with: upstream still wraps the content in a bare document (html and body,
 * nothing styled), so an email without a theme is a whole HTML document, not a fragment.
 */
export const EMPTY_THEME_SOURCE = `import { Html, Body } from "@react-email/components";
export function EmailTheme({ children }) {
  return <Html><Body>{children}</Body></Html>;
}`;

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
 * The look of a default theme. The real default themes style their elements with Tailwind classes, which its Tailwind
 * component turns into inline styles; ours write those inline styles directly, so that they render the same HTML
 * without loading Tailwind into the sandbox (seconds in QuickJS, library-files.ts). A template's own Tailwind classes
 * are therefore left as classes in our default themes (docs/emulator.md).
 */
interface ThemeLook {
  /** The page's background and text (the body). */
  page: string;
  /** The card's style (the Container). */
  card: string;
  /** The colour of the unsubscribe link. */
  link: string;
  /** Which of the project's logos it shows. */
  mode: "light" | "dark";
}

const FONT_FAMILY = `'ui-sans-serif,system-ui,sans-serif,"Apple Color Emoji","Segoe UI Emoji","Segoe UI Symbol","Noto Color Emoji"'`;
const SHADOW = `"0 0 rgb(0,0,0,0),0 0 rgb(0,0,0,0),0 0 rgb(0,0,0,0),0 0 rgb(0,0,0,0),0 1px 3px 0 var(--tw-shadow-color, rgb(0 0 0 / 0.1)),0 1px 2px -1px var(--tw-shadow-color, rgb(0 0 0 / 0.1))"`;

const theme = (look: ThemeLook) => `import { Html, Head, Body, Container, Section, Img } from "@react-email/components";
import type { ThemeProps } from "@stackframe/emails";

// The project's logo for a ${look.mode} background: the full logo if there is one, else the square one beside nothing.
function Logo({ logos }: { logos: ThemeProps["projectLogos"] }) {
  const full = ${look.mode === "dark" ? "logos?.logoFullDarkModeUrl" : "logos?.logoFullUrl"};
  const square = ${look.mode === "dark" ? "logos?.logoDarkModeUrl" : "logos?.logoUrl"};
  if (full) return <Img alt="Full Logo" src={full} style={{ height: "4rem" }} />;
  if (square) {
    return (
      <div style={{ display: "flex", gap: "0.5rem", alignItems: "center" }}>
        <Img alt="Logo" src={square} style={{ height: "2rem" }} />
      </div>
    );
  }
  return null;
}

export function EmailTheme({ children, unsubscribeLink, projectLogos }: ThemeProps) {
  return (
    <Html>
      <Head />
      <Body style={{ ${look.page}, margin: "0rem", padding: "0rem", overflowX: "hidden" }}>
        <div style={{ paddingBottom: "2rem", paddingTop: "2rem", paddingRight: "1rem", paddingLeft: "1rem", display: "flex", justifyContent: "center" }}>
          <Container style={{ ${look.card} }}>
            <Logo logos={projectLogos} />
            {children}
          </Container>
        </div>
        {unsubscribeLink ? (
          <Section style={{ padding: "1rem", opacity: "60%", textAlign: "center" }}>
            <a href={unsubscribeLink} target="_blank" rel="noopener noreferrer" style={{ color: "${look.link}" }}>Click here</a> to unsubscribe from these emails
          </Section>
        ) : null}
      </Body>
    </Html>
  );
}

// What a preview shows: an unsubscribe link, as the real default themes' previews do.
EmailTheme.PreviewProps = { unsubscribeLink: "https://example.com" };
`;

const lightCard = `backgroundColor: "rgb(255,255,255)", padding: "45px", borderRadius: "0.5rem", boxShadow: ${SHADOW}, marginRight: "auto", marginLeft: "auto", width: "100%", maxWidth: "600px"`;

export const defaultThemes: readonly { id: string; displayName: string; tsxSource: string }[] = [
  {
    id: DEFAULT_THEME_ID,
    displayName: "Default Light",
    tsxSource: theme({
      page: `backgroundColor: "rgb(250,251,251)", fontFamily: ${FONT_FAMILY}, fontSize: "1rem", lineHeight: "1.5"`,
      card: lightCard,
      link: "rgb(21,93,252)",
      mode: "light",
    }),
  },
  {
    id: DEFAULT_DARK_THEME_ID,
    displayName: "Default Dark",
    tsxSource: theme({
      page: `backgroundColor: "rgb(50,50,50)", fontFamily: ${FONT_FAMILY}, color: "rgb(255,255,255)"`,
      card: lightCard.replace('"rgb(255,255,255)"', '"rgb(0,0,0)"'),
      link: "rgb(21,93,252)",
      mode: "dark",
    }),
  },
  {
    id: DEFAULT_COLORFUL_THEME_ID,
    displayName: "Default Colorful",
    tsxSource: theme({
      page: `backgroundColor: "rgb(240,238,246)", fontFamily: ${FONT_FAMILY}, fontSize: "1rem", lineHeight: "1.5"`,
      card: `backgroundColor: "rgb(255,255,255)", padding: "45px", borderRadius: "1rem", marginRight: "auto", marginLeft: "auto", width: "100%", maxWidth: "600px", borderTop: "4px solid #7c5ce0"`,
      link: "rgb(124,92,224)",
      mode: "light",
    }),
  },
];

/** A template with a subject, a greeting and a call-to-action link taken from its variables. */
const template = (
  subject: string,
  lead: string,
  action: string,
  previewVariables: string,
) => `import { Heading, Text, Button, Section } from "@react-email/components";
import { Subject, NotificationCategory } from "@stackframe/emails";

export function EmailTemplate({ user, project, variables }: { user: { displayName: string | null }; project: { displayName: string }; variables: Record<string, string> }) {
  return (
    <Section>
      <Subject value={\`${subject}\`} />
      <NotificationCategory value="Transactional" />
      <Heading as="h2">{project.displayName}</Heading>
      <Text>Hi{user.displayName ? \`, \${user.displayName}\` : ""}!</Text>
      <Text>${lead}</Text>
      <Button href={variables.link} style={{ backgroundColor: "#2563eb", color: "#ffffff", padding: "12px 20px", borderRadius: "6px" }}>${action}</Button>
    </Section>
  );
}

EmailTemplate.PreviewVariables = ${previewVariables};
`;

const previewLink = '{ link: "https://example.com/handler/action?code=preview" }';

export const defaultTemplates: readonly { id: string; displayName: string; tsxSource: string }[] = [
  {
    id: DEFAULT_TEMPLATE_IDS.email_verification,
    displayName: "Email Verification",
    tsxSource: template(
      "Verify your email at ${project.displayName}",
      "Please verify your email address.",
      "Verify my email",
      previewLink,
    ),
  },
  {
    id: DEFAULT_TEMPLATE_IDS.password_reset,
    displayName: "Password Reset",
    tsxSource: template(
      "Reset your password at ${project.displayName}",
      "Someone asked to reset your password.",
      "Reset my password",
      previewLink,
    ),
  },
  {
    id: DEFAULT_TEMPLATE_IDS.magic_link,
    displayName: "Magic Link/OTP",
    tsxSource: template("Sign in to ${project.displayName}", "Use the link below to sign in.", "Sign in", previewLink),
  },
  {
    id: DEFAULT_TEMPLATE_IDS.team_invitation,
    displayName: "Team Invitation",
    tsxSource: template(
      "You have been invited to a team on ${project.displayName}",
      "You have been invited to join a team.",
      "Join the team",
      previewLink,
    ),
  },
  {
    id: DEFAULT_TEMPLATE_IDS.sign_in_invitation,
    displayName: "Sign In Invitation",
    tsxSource: template(
      "You have been invited to ${project.displayName}",
      "You have been invited to sign in.",
      "Sign in",
      previewLink,
    ),
  },
  {
    id: DEFAULT_TEMPLATE_IDS.payment_receipt,
    displayName: "Payment Receipt",
    tsxSource: template(
      "Your receipt from ${project.displayName}",
      "Thank you: your payment went through.",
      "See the receipt",
      previewLink,
    ),
  },
  {
    id: DEFAULT_TEMPLATE_IDS.payment_failed,
    displayName: "Payment Failed",
    tsxSource: template(
      "Payment failed for ${project.displayName}",
      "Your last payment did not go through; please check your payment details.",
      "See the invoice",
      previewLink,
    ),
  },
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

/**
 * The themes and templates every project starts with (protocol.md §5.12): real TSX modules, rendered by
 * email/render/sandbox.ts like any an admin writes. Theme ids are the values of the project's `email_theme` setting.
 */

export const DEFAULT_THEME_ID = "default-light";

const theme = (background: string, foreground: string, card: string) => `import { Html, Head, Body, Container, Hr, Text, Link } from "@react-email/components";

export function EmailTheme({ children, unsubscribeLink }: { children: React.ReactNode; unsubscribeLink?: string }) {
  return (
    <Html>
      <Head />
      <Body style={{ backgroundColor: "${background}", color: "${foreground}", fontFamily: "Helvetica, Arial, sans-serif" }}>
        <Container style={{ backgroundColor: "${card}", padding: "24px", borderRadius: "8px" }}>
          {children}
        </Container>
        {unsubscribeLink ? (
          <Container>
            <Hr />
            <Text style={{ fontSize: "12px" }}>
              <Link href={unsubscribeLink}>Unsubscribe</Link>
            </Text>
          </Container>
        ) : null}
      </Body>
    </Html>
  );
}
`;

export const defaultThemes: readonly { id: string; displayName: string; tsxSource: string }[] = [
  { id: "default-light", displayName: "Default Light", tsxSource: theme("#f4f4f5", "#18181b", "#ffffff") },
  { id: "default-dark", displayName: "Default Dark", tsxSource: theme("#18181b", "#fafafa", "#27272a") },
];

/** A template with a subject, a greeting and a call-to-action link taken from its variables. */
const template = (subject: string, lead: string, action: string, previewVariables: string) => `import { Heading, Text, Button, Section } from "@react-email/components";
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
    id: "f4b5d841-b030-4bbd-97da-1e5adc747d04",
    displayName: "Email Verification",
    tsxSource: template("Verify your email at ${project.displayName}", "Please verify your email address.", "Verify my email", previewLink),
  },
  {
    id: "6e21c9b5-d7e7-4b45-ba5a-9a20c70f1f9b",
    displayName: "Password Reset",
    tsxSource: template("Reset your password at ${project.displayName}", "Someone asked to reset your password.", "Reset my password", previewLink),
  },
  {
    id: "411552e6-cf12-4ae9-8fc6-0d6844ba93ad",
    displayName: "Magic Link/OTP",
    tsxSource: template("Sign in to ${project.displayName}", "Use the link below to sign in.", "Sign in", previewLink),
  },
  {
    id: "6767b6d4-3514-4ce0-bdb8-23691c072ab8",
    displayName: "Team Invitation",
    tsxSource: template("You have been invited to a team on ${project.displayName}", "You have been invited to join a team.", "Join the team", previewLink),
  },
  {
    id: "a97b65fe-5f94-4e20-8beb-05c5ab861275",
    displayName: "Sign In Invitation",
    tsxSource: template("You have been invited to ${project.displayName}", "You have been invited to sign in.", "Sign in", previewLink),
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

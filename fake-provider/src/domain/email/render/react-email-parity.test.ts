import { loadEmailEngine } from "#email-engine";
import { describe, expect, it } from "vitest";
import { hostEvaluate, hostRequire } from "../../../test-support/host-react-email.ts";
import { defaultThemes, EMPTY_THEME_SOURCE } from "../default-sources.ts";
import { ARKTYPE_MODULE, STACK_EMAILS_MODULE } from "./context-sources.ts";
import { COMPONENT_PACKAGES } from "./library-files.ts";
import { renderEmailSources } from "./sandbox.ts";

/**
 * The sandbox renders as react-email's own render() does: for trusted fixture emails (themes with Tailwind classes, the
 * default themes, logos, Container, interpolated text), the HTML and text the sandbox answers equal what render() and
 * render(…, { plainText: true }) answer on the host, with the same packages (test-support/host-react-email.ts). A
 * version bump of React or a react-email package that changes the output fails here.
 */

function hostLibraries(): Record<string, unknown> {
  const components: Record<string, unknown> = {};
  // The real index re-exports the packages in this order, the first one to export a name winning.
  for (const id of COMPONENT_PACKAGES)
    for (const [name, value] of Object.entries(hostRequire(id))) if (!(name in components)) components[name] = value;
  const extra: Record<string, unknown> = { "@react-email/components": components };
  extra["@stackframe/emails"] = hostEvaluate(STACK_EMAILS_MODULE, extra);
  extra["arktype"] = hostEvaluate(ARKTYPE_MODULE, extra);
  return extra;
}

interface Fixture {
  name: string;
  theme: string;
  template: string;
  variables?: Record<string, unknown>;
  unsubscribeLink?: string;
  projectLogos?: Record<string, string>;
}

const tailwindTheme = `import { Html, Head, Tailwind, Body, Container, Section } from "@react-email/components";
import { ProjectLogo } from "@stackframe/emails";
export function EmailTheme({ children, unsubscribeLink, projectLogos }) {
  return (
    <Html>
      <Tailwind>
        <Head />
        <Body className="bg-[#fafbfb] font-sans text-base m-0 p-0" style={{ overflowX: "hidden" }}>
          <Container className="bg-white p-[45px] rounded-lg shadow-sm mx-auto" style={{ maxWidth: "600px" }}>
            <ProjectLogo data={projectLogos} mode="light" />
            {children}
          </Container>
          {unsubscribeLink && (
            <Section className="p-4 opacity-60 text-center">
              <a href={unsubscribeLink} className="text-blue-600 md:text-lg">Unsubscribe</a>
            </Section>
          )}
        </Body>
      </Tailwind>
    </Html>
  );
}`;

const richTemplate = `import { Button, Heading, Hr, Img, Link, Preview, Section, Row, Column, Text } from "@react-email/components";
import { Subject, NotificationCategory } from "@stackframe/emails";
export const variablesSchema = (v) => v;
export function EmailTemplate({ user, project, variables }) {
  return (
    <>
      <Preview>Your code is {variables.code}</Preview>
      <Subject value={"Hello " + user.displayName} />
      <NotificationCategory value="Transactional" />
      <Heading as="h2" className="text-xl font-bold text-center">Hi {user.displayName} &amp; welcome to {project.displayName}</Heading>
      <Text className="text-sm text-gray-600">Your code is <b>{variables.code}</b>; {variables.count} left.</Text>
      <Section className="py-3">
        <Row><Column className="w-1/2">Left</Column><Column align="right">Right</Column></Row>
      </Section>
      <Button href={variables.link} className="bg-black text-white rounded px-5 py-3">Open</Button>
      <Hr className="opacity-20" />
      <Img src="https://cdn.example.com/banner.png" alt="Banner" width="300" />
      <Link href="https://example.com/help" data-skip-in-text="true">Help</Link>
      <p>Plain: <a href="https://example.com/x?a=1&amp;b=2">https://example.com/x?a=1&amp;b=2</a></p>
    </>
  );
}`;

const plainTemplate = `import { Container } from "@react-email/components";
import { Subject, NotificationCategory } from "@stackframe/emails";
export const variablesSchema = (v) => v;
export function EmailTemplate({ user, variables }) {
  return (
    <Container>
      <Subject value="Plain" />
      <NotificationCategory value="Marketing" />
      <div data-testid="string">String: {variables.text}</div>
      <div>Preview for {user.displayName}</div>
      {variables.items.map((item) => <div key={item}>{item}</div>)}
    </Container>
  );
}`;

const logos = { logoUrl: "https://example.com/logo.png", logoDarkModeUrl: "https://example.com/dark.png" };
const fixtures: Fixture[] = [
  {
    name: "a Tailwind theme (classes inlined, a media query kept in the head) around a template using every component",
    theme: tailwindTheme,
    template: richTemplate,
    variables: { code: "RMX60K", count: 3, link: "https://example.com/go?x=1" },
    unsubscribeLink: "https://example.com/unsubscribe?code=abc",
    projectLogos: logos,
  },
  ...defaultThemes.map((theme) => ({
    name: `the default theme "${theme.displayName}" with a logo and an unsubscribe link`,
    theme: theme.tsxSource,
    template: plainTemplate,
    variables: { text: "hello <world>", items: ["apple", "banana"] },
    unsubscribeLink: "https://example.com/unsubscribe?code=abc",
    projectLogos: logos,
  })),
  {
    name: "no theme (the empty document)",
    theme: EMPTY_THEME_SOURCE,
    template: plainTemplate,
    variables: { text: "x", items: [] },
  },
  {
    name: "a theme with the project logo and no Tailwind (its class names stay)",
    theme: `import { Container } from "@react-email/components";
      import { ProjectLogo } from "@stackframe/emails";
      export function EmailTheme({ children, projectLogos }) {
        return <Container><div data-testid="logo-container"><ProjectLogo data={projectLogos} /></div>{children}</Container>;
      }`,
    template: plainTemplate,
    variables: { text: "x", items: ["one"] },
    projectLogos: { logoUrl: "https://example.com/test-logo.png" },
  },
];

const user = { displayName: "Ann Smith" };
const project = { displayName: "Acme & Co" };

describe("the sandbox renders as react-email's render() on the host", () => {
  const extra = hostLibraries();
  const render = hostRequire("@react-email/render") as {
    render: (element: unknown, options?: { plainText?: boolean }) => Promise<string>;
  };
  const React = hostRequire("react") as { createElement: (...args: unknown[]) => unknown };

  async function onHost(fixture: Fixture): Promise<{ html: string; text: string }> {
    const engine = await loadEmailEngine();
    const { EmailTheme } = hostEvaluate(await engine.compile(fixture.theme, "theme.tsx"), extra);
    const { EmailTemplate } = hostEvaluate(await engine.compile(fixture.template, "template.tsx"), extra);
    const email = React.createElement(
      EmailTheme,
      { unsubscribeLink: fixture.unsubscribeLink, projectLogos: fixture.projectLogos ?? {} },
      React.createElement(EmailTemplate, { variables: fixture.variables ?? {}, user, project }),
    );
    return { html: await render.render(email), text: await render.render(email, { plainText: true }) };
  }

  it.each(fixtures)(
    "$name",
    async (fixture) => {
      const ours = await renderEmailSources({
        themeSource: fixture.theme,
        templateSource: fixture.template,
        variables: fixture.variables ?? {},
        user,
        project,
        ...(fixture.unsubscribeLink ? { unsubscribeLink: fixture.unsubscribeLink } : {}),
        ...(fixture.projectLogos ? { projectLogos: fixture.projectLogos } : {}),
      });
      const reference = await onHost(fixture);
      expect(ours.html).toBe(reference.html);
      expect(ours.text).toBe(reference.text);
    },
    120_000,
  );
});

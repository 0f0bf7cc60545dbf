import { loadEmailEngine } from "#email-engine";
import { describe, expect, it, vi } from "vitest";
import { KnownErrorException } from "../../errors/known-error.ts";
import { renderEmailSources } from "./sandbox.ts";

/** The email renderer (protocol.md §5.12; spec §8 EMAIL_RENDERING_ERROR): real TSX and React, confined and bounded. */

const project = { displayName: "Acme" };
// A second for an email's code, not the default five: the loops here run to the limit (its default: sandbox-escapes.test.ts).
const TIME_LIMIT_MILLIS = 1_000;
const render = (templateSource: string, themeSource: string | null = null) =>
  renderEmailSources({ templateSource, themeSource, project, timeLimitMillis: TIME_LIMIT_MILLIS });

async function renderError(templateSource: string): Promise<string> {
  const error: unknown = await render(templateSource).then(
    () => new Error("rendered"),
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(KnownErrorException);
  expect((error as KnownErrorException).code).toBe("EMAIL_RENDERING_ERROR");
  return String((error as KnownErrorException).details?.error);
}

describe("rendering", () => {
  it("renders TSX with components, props and the real react-email components, and finds Subject and NotificationCategory", async () => {
    const template = `import { Container, Link, Heading } from "@react-email/components";
      import { Subject, NotificationCategory } from "@stackframe/emails";
      type Props = { project: { displayName: string } };
      export function EmailTemplate({ project }: Props) {
        const items = ["a", "b"];
        return <Container><Subject value="S" /><NotificationCategory value="Marketing" /><Heading as="h2">{project.displayName}</Heading>
          {items.map((i) => <Link key={i} href={"https://x.example.com/" + i}>{i.toUpperCase()}</Link>)}</Container>;
      }`;
    const result = await render(template);
    expect(result.subject).toBe("S");
    expect(result.notificationCategory).toBe("Marketing");
    // react-email's render(): its document type, then React's markup inside a Suspense boundary (<!--$-->…<!--/$-->).
    expect(result.html).toBe(
      '<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Transitional//EN" "http://www.w3.org/TR/xhtml1/DTD/xhtml1-transitional.dtd">' +
        '<!--$--><table align="center" width="100%" border="0" cellPadding="0" cellSpacing="0" role="presentation" style="max-width:37.5em"><tbody><tr style="width:100%"><td>' +
        '<h2>Acme</h2><a href="https://x.example.com/a" style="color:#067df7;text-decoration-line:none" target="_blank">A</a>' +
        '<a href="https://x.example.com/b" style="color:#067df7;text-decoration-line:none" target="_blank">B</a></td></tr></tbody></table><!--/$-->',
    );
    // html-to-text with react-email's options: headings in capitals, a link's target after its label.
    expect(result.text).toBe("ACME\n\nA https://x.example.com/aB https://x.example.com/b");
  });

  it("wraps the content in the theme and prefixes the document type", async () => {
    const result = await render(
      "export function EmailTemplate() { return <b>hi</b>; }",
      "export function EmailTheme({ children }) { return <html><body>{children}</body></html>; }",
    );
    // React 19 adds the <head> a document needs, and marks the boundary's document parts (<!--3-->: html and body).
    expect(result.html).toMatch(
      /^<!DOCTYPE html PUBLIC[^>]*><html><head><\/head><body><!--\$--><b>hi<\/b><!--3--><!--\/\$--><\/body><\/html>$/,
    );
    expect(result).not.toHaveProperty("subject");
  });
});

describe("heavy libraries", () => {
  it("loads Tailwind for an email that reaches it without naming it, by rendering it again with every library", async () => {
    const theme = `import * as Email from "@react-email/components";
        const Styled = Email["Tail" + "wind"];
        export function EmailTheme({ children }) { return <Styled><div className="p-4">{children}</div></Styled>; }`;
    const result = await render("export function EmailTemplate() { return <b>hi</b>; }", theme);
    expect(result.html).toContain('<div style="padding:1rem"><b>hi</b></div>');
  }, 120_000);
});

describe("compiling", () => {
  it("compiles a source once and runs it afresh on every render; a changed source or a failed compile is compiled again", async () => {
    const engine = await loadEmailEngine();
    const compile = vi.spyOn(engine, "compile");
    try {
      const template =
        "export const variablesSchema = (v) => v; export function EmailTemplate({ variables }) { globalThis.count = (globalThis.count ?? 0) + 1; return <p>{variables.n}:{globalThis.count}</p>; }";
      const theme = "export function EmailTheme({ children }) { return <div>{children}</div>; }";
      const renderWith = (n: number) =>
        renderEmailSources({ templateSource: template, themeSource: theme, project, variables: { n } });
      expect((await renderWith(1)).text).toBe("1:1");
      expect((await renderWith(2)).text).toBe("2:1");
      expect(compile).toHaveBeenCalledTimes(2);
      await render(template.replace("<p>", "<p>changed "), theme);
      expect(compile).toHaveBeenCalledTimes(3);
      const broken = "export function EmailTemplate() {\n  return <p>;\n}";
      const first = await renderError(broken);
      expect(await renderError(broken)).toBe(first);
      expect(compile).toHaveBeenCalledTimes(5);
    } finally {
      compile.mockRestore();
    }
  });
});

describe("confinement", () => {
  it("gives the email no process, require or host Function, even through the modules it imports", async () => {
    const probe = `import * as React from "react";
      import { Text } from "@react-email/components";
      export function EmailTemplate() {
        const viaReact = React.createElement.constructor("return typeof process")();
        const viaComponent = (Text.render ?? Text).constructor("return typeof require")();
        const viaElement = (<p />).constructor.constructor("return typeof process")();
        const viaGlobal = typeof globalThis.process + "," + typeof globalThis.require + "," + typeof globalThis.fetch;
        return <p>{[viaReact, viaComponent, viaElement, viaGlobal].join("|")}</p>;
      }`;
    expect((await render(probe)).text).toBe("undefined|undefined|undefined|undefined,undefined,undefined");
  });

  it("refuses imports outside the allowed modules", async () => {
    expect(await renderError('import { x } from "react-dom"; export function EmailTemplate() { return x; }')).toMatch(
      /Cannot import "react-dom"/,
    );
    expect(
      await renderError(
        'import fs from "node:fs"; export function EmailTemplate() { return fs.readFileSync("/etc/hostname"); }',
      ),
    ).toMatch(/Cannot import "node:fs".*react, react\/jsx-runtime, @react-email\/components, @stackframe\/emails/);
  });

  it("nothing one email defines is seen by the next", async () => {
    await render("globalThis.leaked = 'secret'; export function EmailTemplate() { return null; }");
    expect((await render("export function EmailTemplate() { return <p>{typeof globalThis.leaked}</p>; }")).text).toBe(
      "undefined",
    );
  });
});

describe("errors (EMAIL_RENDERING_ERROR)", () => {
  it("carries the compiler's message with line and column", async () => {
    expect(await renderError("export function EmailTemplate() {\n  return <p>;\n}")).toMatch(
      /^Build failed with \d+ errors?:\nvirtual:\/template\.tsx:3:\d+: ERROR: /,
    );
    // Every error the compiler found, each with its place, as upstream reports them.
    expect(await renderError("export function EmailTemplate() {\n  return <span>{1}}</span>\n")).toBe(
      'Build failed with 2 errors:\nvirtual:/template.tsx:2:18: ERROR: The character "}" is not valid inside a JSX element\nvirtual:/template.tsx:3:0: ERROR: Unexpected end of file',
    );
  });

  it("stops an email that loops forever, while loading or while rendering", async () => {
    const started = performance.now();
    expect(await renderError("while (true) {} export function EmailTemplate() { return null; }")).toContain(
      `longer than ${TIME_LIMIT_MILLIS} ms`,
    );
    expect(await renderError("export function EmailTemplate() { for (;;) {} }")).toContain(
      `longer than ${TIME_LIMIT_MILLIS} ms`,
    );
    expect(performance.now() - started).toBeLessThan(4 * TIME_LIMIT_MILLIS + 10_000);
  }, 30_000);

  it("reports what the component threw, and a missing export", async () => {
    expect(await renderError('export function EmailTemplate() { throw new TypeError("no"); }')).toBe(
      "The email failed to render: no",
    );
    expect(await renderError("export const EmailTemplate = 3;")).toBe(
      "The template must export a function component named EmailTemplate.",
    );
  });
});

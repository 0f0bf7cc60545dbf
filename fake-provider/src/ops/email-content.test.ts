import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { DEV, admin, api, expectJson, expectKnownError, newProvider, server, type TestProvider } from "../test-support/api.ts";
import { updatedProject } from "../test-support/admin.ts";

/** Email themes, templates and drafts (spec §3; protocol.md §5.12), and the render endpoint. */

let provider: TestProvider;
beforeEach(() => {
  provider = newProvider();
});
afterEach(() => expect(provider.unexpected).toEqual([]));

const get = async <T>(path: string) => expectJson<T>(await api(provider, path, { headers: admin() }));
const post = (path: string, json: unknown) => api(provider, path, { headers: admin(), json });
const patch = (path: string, json: unknown) => api(provider, path, { method: "PATCH", headers: admin(), json });
const del = (path: string) => api(provider, path, { method: "DELETE", headers: admin() });

const TEMPLATE = `import { Text } from "@react-email/components";
import { Subject } from "@stackframe/emails";
export function EmailTemplate({ user, variables }: { user: { displayName: string | null }; variables: { count: number } }) {
  return <><Subject value={"You have " + variables.count + " messages"} /><Text>Hello {user.displayName ?? "there"}, count={variables.count}</Text></>;
}
EmailTemplate.PreviewVariables = { count: 3 };`;

const THEME = `export function EmailTheme({ children }: { children: React.ReactNode }) { return <html><body><main id="theme">{children}</main></body></html>; }`;

describe("themes", () => {
  it("lists the default themes, creates one that renders, updates and deletes it", async () => {
    const { themes } = await get<{ themes: { id: string; display_name: string }[] }>("/internal/email-themes");
    expect(themes.map((t) => t.id).sort()).toEqual(["default-dark", "default-light"]);
    const { id } = await expectJson<{ id: string }>(await post("/internal/email-themes", { display_name: "Brand" }));
    expect((await get<{ display_name: string; tsx_source: string }>(`/internal/email-themes/${id}`)).display_name).toBe("Brand");
    await expectJson(await patch(`/internal/email-themes/${id}`, { tsx_source: THEME }));
    expect((await get<{ tsx_source: string }>(`/internal/email-themes/${id}`)).tsx_source).toBe(THEME);
    await expectJson(await del(`/internal/email-themes/${id}`));
    expect((await api(provider, `/internal/email-themes/${id}`, { headers: admin() })).status).toBe(404);
  });

  it("refuses a theme that does not compile with EMAIL_RENDERING_ERROR carrying the compiler's message, keeping the old source", async () => {
    const before = await get<{ tsx_source: string }>("/internal/email-themes/default-light");
    const body = await expectKnownError(await patch("/internal/email-themes/default-light", { tsx_source: "export function EmailTheme( {" }), "EMAIL_RENDERING_ERROR", 400);
    expect(String(body.details?.error)).toMatch(/Could not compile the theme: .*\(1:\d+\)/);
    expect(body.error).toContain("Failed to render email with theme");
    expect((await get<{ tsx_source: string }>("/internal/email-themes/default-light")).tsx_source).toBe(before.tsx_source);
  });

  it("will not delete the project's selected theme", async () => {
    expect((await del("/internal/email-themes/default-light")).status).toBe(400);
    await updatedProject(provider, { config: { email_theme: "default-dark" } });
    await expectJson(await del("/internal/email-themes/default-light"));
  });

  it("is admin only", async () => {
    await expectKnownError(await api(provider, "/internal/email-themes", { headers: server() }), "INSUFFICIENT_ACCESS_TYPE", 401);
  });
});

describe("templates", () => {
  it("creates a template, refuses a second of the same name with EMAIL_TEMPLATE_ALREADY_EXISTS, updates and deletes it", async () => {
    const { id } = await expectJson<{ id: string }>(await post("/internal/email-templates", { display_name: "Digest" }));
    await expectKnownError(await post("/internal/email-templates", { display_name: "digest" }), "EMAIL_TEMPLATE_ALREADY_EXISTS", 409);
    const updated = await expectJson<{ rendered_html: string }>(await patch(`/internal/email-templates/${id}`, { tsx_source: TEMPLATE, theme_id: false }));
    expect(updated.rendered_html).toBe('<p style="font-size:14px;line-height:24px;margin:16px 0">Hello there, count=3</p>');
    const { templates } = await get<{ templates: { id: string; theme_id?: unknown; tsx_source: string }[] }>("/internal/email-templates");
    expect(templates.find((t) => t.id === id)).toMatchObject({ theme_id: false, tsx_source: TEMPLATE });
    expect(templates.length).toBe(6);
    await expectJson(await del(`/internal/email-templates/${id}`));
    expect((await get<{ templates: unknown[] }>("/internal/email-templates")).templates.length).toBe(5);
  });

  it("refuses a template that throws, imports what it may not, or loops forever", async () => {
    const { id } = await expectJson<{ id: string }>(await post("/internal/email-templates", { display_name: "Bad" }));
    const cases: [string, RegExp][] = [
      ['export function EmailTemplate() { throw new Error("boom"); }', /failed to render: boom/],
      ['import fs from "node:fs"; export function EmailTemplate() { return fs.readFileSync("/etc/passwd"); }', /Cannot import "node:fs"/],
      ["export function EmailTemplate() { return process.env.HOME; }", /'process' is not defined/],
      ["export function EmailTemplate() { while (true) {} }", /longer than 1000 ms/],
      ["export const nothing = 1;", /must export a function component named EmailTemplate/],
    ];
    for (const [source, message] of cases) {
      const body = await expectKnownError(await patch(`/internal/email-templates/${id}`, { tsx_source: source }), "EMAIL_RENDERING_ERROR", 400);
      expect(String(body.details?.error)).toMatch(message);
    }
  });
});

describe("drafts", () => {
  it("creates, lists, updates and deletes drafts", async () => {
    const { id } = await expectJson<{ id: string }>(await post("/internal/email-drafts", { display_name: "Launch", theme_id: "default-dark" }));
    await expectJson(await patch(`/internal/email-drafts/${id}`, { tsx_source: TEMPLATE, theme_id: false }));
    const { drafts } = await get<{ drafts: Record<string, unknown>[] }>("/internal/email-drafts");
    expect(drafts).toEqual([{ id, display_name: "Launch", theme_id: false, tsx_source: TEMPLATE, sent_at_millis: null }]);
    expect((await post("/internal/email-drafts", { theme_id: "no-such-theme" })).status).toBe(404);
    await expectJson(await del(`/internal/email-drafts/${id}`));
    expect((await get<{ drafts: unknown[] }>("/internal/email-drafts")).drafts).toEqual([]);
  });
});

describe("POST /emails/render-email", () => {
  it("renders sources with the theme for real: HTML, text and the subject", async () => {
    const rendered = await expectJson<{ html: string; text: string; subject?: string }>(await post("/emails/render-email", { theme_tsx_source: THEME, template_tsx_source: TEMPLATE }));
    expect(rendered.html).toContain('<main id="theme"><p');
    expect(rendered.html.startsWith("<!DOCTYPE html")).toBe(true);
    expect(rendered.text).toBe("Hello there, count=3");
    expect(rendered.subject).toBe("You have 3 messages");
  });

  it("renders stored ones by id, with the project's theme when none is named", async () => {
    const { templates } = await get<{ templates: { id: string; display_name: string }[] }>("/internal/email-templates");
    const verification = templates.find((t) => t.display_name === "Email Verification")!;
    const rendered = await expectJson<{ html: string; text: string; subject?: string }>(await post("/emails/render-email", { template_id: verification.id }));
    expect(rendered.subject).toBe(`Verify your email at ${DEV.display_name}`);
    expect(rendered.text).toContain("Verify my email (https://example.com/handler/action?code=preview)");
    expect(rendered.html).toContain("background-color:#f4f4f5");
    const dark = await expectJson<{ html: string }>(await post("/emails/render-email", { template_id: verification.id, theme_id: "default-dark" }));
    expect(dark.html).toContain("background-color:#18181b");
  });

  it("needs a template, and reports the compiler's message for bad source", async () => {
    await expectKnownError(await post("/emails/render-email", { theme_id: false }), "SCHEMA_ERROR", 400);
    const body = await expectKnownError(await post("/emails/render-email", { theme_id: false, template_tsx_source: "export function EmailTemplate() { return <div> }" }), "EMAIL_RENDERING_ERROR", 400);
    expect(String(body.details?.error)).toMatch(/Could not compile the template: .*\(1:\d+\)/);
  });
});

import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  DEV,
  admin,
  api,
  expectJson,
  expectKnownError,
  newProvider,
  server,
  type TestProvider,
} from "../../../test-support/api.ts";
import { updatedProject } from "../../../test-support/admin.ts";
import {
  DEFAULT_COLORFUL_THEME_ID,
  DEFAULT_DARK_THEME_ID,
  DEFAULT_TEMPLATE_IDS,
  DEFAULT_THEME_ID,
} from "../../email/default-sources.ts";

/** Email themes, templates and drafts (spec §3; protocol.md §5.12), and the render endpoint. */

let provider: TestProvider;
beforeEach(() => {
  // A second for an email's code (the default is five): the looping template below runs to the limit.
  provider = newProvider({ emailRenderTimeLimitMillis: 1_000 });
});
afterEach(() => expect(provider.unexpected).toEqual([]));

const get = async <T>(path: string) => expectJson<T>(await api(provider, path, { headers: admin() }));
const post = (path: string, json: unknown) => api(provider, path, { headers: admin(), json });
const patch = (path: string, json: unknown) => api(provider, path, { method: "PATCH", headers: admin(), json });
const del = (path: string) => api(provider, path, { method: "DELETE", headers: admin() });

const TEMPLATE = `import { Text } from "@react-email/components";
import { Subject } from "@stackframe/emails";
export const variablesSchema = (v: unknown) => v;
export function EmailTemplate({ user, variables }: { user: { displayName: string | null }; variables: { count: number } }) {
  return <><Subject value={"You have " + variables.count + " messages"} /><Text>Hello {user.displayName ?? "there"}, count={variables.count}</Text></>;
}
EmailTemplate.PreviewVariables = { count: 3 };`;

/** Templates are the project's own only with a custom email server. */
const customEmailServer = () =>
  updatedProject(provider, {
    config: {
      email_config: {
        type: "standard",
        host: "smtp.example.com",
        port: 587,
        username: "u",
        password: "p",
        sender_name: "App",
        sender_email: "noreply@example.com",
      },
    },
  });

const WITH_CATEGORY = TEMPLATE.replace(
  'import { Subject } from "@stackframe/emails";',
  'import { Subject, NotificationCategory } from "@stackframe/emails";',
).replace("<><Subject", '<><NotificationCategory value="Transactional" /><Subject');

const THEME = `export function EmailTheme({ children }: { children: React.ReactNode }) { return <html><body><main id="theme">{children}</main></body></html>; }`;

describe("themes", () => {
  it("lists the default themes, creates one that renders, updates and deletes it", async () => {
    const { themes } = await get<{ themes: { id: string; display_name: string }[] }>("/internal/email-themes");
    expect(themes).toEqual([
      { id: DEFAULT_THEME_ID, display_name: "Default Light" },
      { id: DEFAULT_DARK_THEME_ID, display_name: "Default Dark" },
      { id: DEFAULT_COLORFUL_THEME_ID, display_name: "Default Colorful" },
    ]);
    const { id } = await expectJson<{ id: string }>(await post("/internal/email-themes", { display_name: "Brand" }));
    expect((await get<{ display_name: string; tsx_source: string }>(`/internal/email-themes/${id}`)).display_name).toBe(
      "Brand",
    );
    expect(await expectJson(await patch(`/internal/email-themes/${id}`, { tsx_source: THEME }))).toEqual({
      display_name: "Brand",
    });
    expect((await get<{ tsx_source: string }>(`/internal/email-themes/${id}`)).tsx_source).toBe(THEME);
    await expectJson(await del(`/internal/email-themes/${id}`));
    const missing = await api(provider, `/internal/email-themes/${id}`, { headers: admin() });
    expect([missing.status, await missing.text()]).toEqual([404, "No theme found with given id"]);
  });

  it("refuses a theme that does not compile with EMAIL_RENDERING_ERROR carrying the compiler's message, keeping the old source", async () => {
    const before = await get<{ tsx_source: string }>(`/internal/email-themes/${DEFAULT_THEME_ID}`);
    const body = await expectKnownError(
      await patch(`/internal/email-themes/${DEFAULT_THEME_ID}`, { tsx_source: "export function EmailTheme( {" }),
      "EMAIL_RENDERING_ERROR",
      400,
    );
    expect(String(body.details?.error)).toMatch(/^Build failed with 1 error:\nvirtual:\/theme\.tsx:1:\d+: ERROR: /);
    expect(body.error).toContain("Failed to render email with theme");
    expect((await get<{ tsx_source: string }>(`/internal/email-themes/${DEFAULT_THEME_ID}`)).tsx_source).toBe(
      before.tsx_source,
    );
  });

  it("words a theme without an EmailTheme export as the real service's build does", async () => {
    const body = await expectKnownError(
      await patch(`/internal/email-themes/${DEFAULT_THEME_ID}`, {
        tsx_source: "export function WrongName() { return null; }",
      }),
      "EMAIL_RENDERING_ERROR",
      400,
    );
    expect(body.details?.error).toBe(
      'Build failed with 1 error:\nvirtual:/render.tsx:9:9: ERROR: No matching export in "virtual:/theme.tsx" for import "EmailTheme"',
    );
  });

  it("will not delete the project's selected theme", async () => {
    const refused = await del(`/internal/email-themes/${DEFAULT_THEME_ID}`);
    expect([refused.status, await refused.text()]).toEqual([
      400,
      "Cannot delete the currently active email theme. Please select a different theme first.",
    ]);
    await updatedProject(provider, { config: { email_theme: DEFAULT_DARK_THEME_ID } });
    await expectJson(await del(`/internal/email-themes/${DEFAULT_THEME_ID}`));
  });

  it("is admin only", async () => {
    await expectKnownError(
      await api(provider, "/internal/email-themes", { headers: server() }),
      "INSUFFICIENT_ACCESS_TYPE",
      401,
    );
  });
});

describe("templates", () => {
  it("are the defaults with the real ids, and cannot be changed with the shared email server (REQUIRES_CUSTOM_EMAIL_SERVER)", async () => {
    const { templates } = await get<{ templates: { id: string }[] }>("/internal/email-templates");
    expect(templates.map((t) => t.id)).toEqual(Object.values(DEFAULT_TEMPLATE_IDS));
    await expectKnownError(
      await post("/internal/email-templates", { display_name: "Digest" }),
      "REQUIRES_CUSTOM_EMAIL_SERVER",
      400,
    );
    await expectKnownError(
      await patch(`/internal/email-templates/${DEFAULT_TEMPLATE_IDS.password_reset}`, { tsx_source: TEMPLATE }),
      "REQUIRES_CUSTOM_EMAIL_SERVER",
      400,
    );
    await expectKnownError(
      await del(`/internal/email-templates/${DEFAULT_TEMPLATE_IDS.password_reset}`),
      "REQUIRES_CUSTOM_EMAIL_SERVER",
      400,
    );
    await customEmailServer();
    const missing = await del("/internal/email-templates/00000000-0000-4000-8000-000000000000");
    expect([missing.status, await missing.text()]).toEqual([404, "No template found with given id"]);
  });

  it("creates a template, refuses a second of the same name with EMAIL_TEMPLATE_ALREADY_EXISTS, updates and deletes it", async () => {
    await customEmailServer();
    const { id } = await expectJson<{ id: string }>(
      await post("/internal/email-templates", { display_name: "Digest" }),
    );
    await expectKnownError(
      await post("/internal/email-templates", { display_name: "digest" }),
      "EMAIL_TEMPLATE_ALREADY_EXISTS",
      409,
    );
    const noCategory = await patch(`/internal/email-templates/${id}`, { tsx_source: TEMPLATE, theme_id: false });
    expect(String((await expectKnownError(noCategory, "EMAIL_RENDERING_ERROR", 400)).details?.error)).toBe(
      "NotificationCategory is required, import it from @stackframe/emails",
    );
    // Checked with the project's active theme, whatever the template's own.
    const updated = await expectJson<{ rendered_html: string }>(
      await patch(`/internal/email-templates/${id}`, { tsx_source: WITH_CATEGORY, theme_id: false }),
    );
    expect(updated.rendered_html).toContain(
      '<p style="font-size:14px;line-height:24px;margin-top:16px;margin-bottom:16px">Hello <!-- -->John Doe<!-- -->, count=<!-- -->3</p>',
    );
    expect(updated.rendered_html).toContain("background-color:rgb(250,251,251)");
    const { templates } = await get<{ templates: { id: string; theme_id?: unknown; tsx_source: string }[] }>(
      "/internal/email-templates",
    );
    expect(templates.find((t) => t.id === id)).toMatchObject({ theme_id: false, tsx_source: WITH_CATEGORY });
    expect(templates.length).toBe(8);
    expect(await expectJson(await del(`/internal/email-templates/${id}`))).toEqual({});
    expect((await get<{ templates: unknown[] }>("/internal/email-templates")).templates.length).toBe(7);
  });

  it("takes the provider's render time limit, from 1 ms to 60 s", () => {
    for (const bad of [0, -1, 1.5, 60_001]) {
      expect(() => newProvider({ emailRenderTimeLimitMillis: bad }), String(bad)).toThrow(
        "emailRenderTimeLimitMillis must be an integer from 1 to 60000.",
      );
    }
    expect(() => newProvider({ emailRenderTimeLimitMillis: 60_000 })).not.toThrow();
  });

  it("refuses a template that throws, imports what it may not, or loops forever", async () => {
    await customEmailServer();
    const { id } = await expectJson<{ id: string }>(await post("/internal/email-templates", { display_name: "Bad" }));
    const cases: [string, RegExp][] = [
      ['export function EmailTemplate() { throw new Error("boom"); }', /failed to render: boom/],
      [
        'import fs from "node:fs"; export function EmailTemplate() { return fs.readFileSync("/etc/passwd"); }',
        /Cannot import "node:fs"/,
      ],
      ["export function EmailTemplate() { return process.env.HOME; }", /'process' is not defined/],
      ["export function EmailTemplate() { while (true) {} }", /longer than 1000 ms/],
      ["export const nothing = 1;", /must export a function component named EmailTemplate/],
    ];
    for (const [source, message] of cases) {
      const body = await expectKnownError(
        await patch(`/internal/email-templates/${id}`, { tsx_source: source }),
        "EMAIL_RENDERING_ERROR",
        400,
      );
      expect(String(body.details?.error)).toMatch(message);
    }
    // The loop runs until the render time limit stops it.
  }, 30_000);
});

describe("drafts", () => {
  it("creates, lists, updates and deletes drafts", async () => {
    const { id } = await expectJson<{ id: string }>(
      await post("/internal/email-drafts", { display_name: "Launch", theme_id: DEFAULT_DARK_THEME_ID }),
    );
    expect(
      await expectJson(await patch(`/internal/email-drafts/${id}`, { tsx_source: TEMPLATE, theme_id: false })),
    ).toEqual({ ok: "ok" });
    const { drafts } = await get<{ drafts: Record<string, unknown>[] }>("/internal/email-drafts");
    expect(drafts).toEqual([
      { id, display_name: "Launch", theme_id: false, tsx_source: TEMPLATE, sent_at_millis: null },
    ]);
    const unnamed = await expectKnownError(await post("/internal/email-drafts", {}), "SCHEMA_ERROR", 400);
    expect(unnamed.error).toBe(
      "Request validation failed on POST /api/v1/internal/email-drafts:\n  - body.display_name must be defined",
    );
    const refused = await expectKnownError(
      await post("/internal/email-drafts", { display_name: "X", theme_id: "no-such-theme" }),
      "SCHEMA_ERROR",
      400,
    );
    expect(refused.error).toContain("body.theme_id is invalid");
    expect(await expectJson(await del(`/internal/email-drafts/${id}`))).toEqual({ ok: "ok" });
    const missing = await del(`/internal/email-drafts/${id}`);
    expect([missing.status, await missing.text()]).toEqual([404, "No draft found with given id"]);
    expect((await get<{ drafts: unknown[] }>("/internal/email-drafts")).drafts).toEqual([]);
  });
});

describe("ids in the path", () => {
  it("are checked as the real routes check them: a theme, template or draft id that is not a UUID is a SCHEMA_ERROR naming the real parameter", async () => {
    const cases: [string, Response][] = [
      [
        "GET /api/v1/internal/email-themes/nope:\n  - params.id",
        await api(provider, "/internal/email-themes/nope", { headers: admin() }),
      ],
      [
        "GET /api/v1/internal/email-drafts/nope:\n  - params.id",
        await api(provider, "/internal/email-drafts/nope", { headers: admin() }),
      ],
      [
        "PATCH /api/v1/internal/email-drafts/nope:\n  - params.id",
        await patch("/internal/email-drafts/nope", { display_name: "x" }),
      ],
      ["DELETE /api/v1/internal/email-drafts/nope:\n  - params.id", await del("/internal/email-drafts/nope")],
      // Before the custom-email-server check, as the real route's schema comes before its handler.
      [
        "PATCH /api/v1/internal/email-templates/nope:\n  - params.templateId",
        await patch("/internal/email-templates/nope", { tsx_source: TEMPLATE }),
      ],
      [
        "DELETE /api/v1/internal/email-templates/nope:\n  - params.templateId",
        await del("/internal/email-templates/nope"),
      ],
    ];
    for (const [where, response] of cases) {
      const body = await expectKnownError(response, "SCHEMA_ERROR", 400);
      expect(body.error).toBe(`Request validation failed on ${where} must be a valid UUID`);
    }
    // A well-formed id that names nothing stays the real plain-text 404.
    const missing = await api(provider, "/internal/email-drafts/00000000-0000-4000-8000-000000000000", {
      headers: admin(),
    });
    expect([missing.status, await missing.text()]).toEqual([404, "No draft found with given id"]);
  });
});

describe("draft order", () => {
  it("lists the most recently changed draft first", async () => {
    const first = await expectJson<{ id: string }>(await post("/internal/email-drafts", { display_name: "First" }));
    provider.clock.advance(1_000);
    const second = await expectJson<{ id: string }>(await post("/internal/email-drafts", { display_name: "Second" }));
    const order = async () =>
      (await get<{ drafts: { id: string }[] }>("/internal/email-drafts")).drafts.map((d) => d.id);
    expect(await order()).toEqual([second.id, first.id]);
    provider.clock.advance(1_000);
    await expectJson(await patch(`/internal/email-drafts/${first.id}`, { display_name: "First, edited" }));
    expect(await order()).toEqual([first.id, second.id]);
  });
});

describe("POST /emails/render-email", () => {
  it("renders sources with the theme for real: HTML, text and the subject", async () => {
    const rendered = await expectJson<{ html: string; text: string; subject?: string }>(
      await post("/emails/render-email", { theme_tsx_source: THEME, template_tsx_source: TEMPLATE }),
    );
    expect(rendered.html).toContain('<main id="theme"><p');
    expect(rendered.html.startsWith("<!DOCTYPE html")).toBe(true);
    expect(rendered.subject).toBe("You have 3 messages");
    // A preview has no recipient; upstream's previews show a sample user named John Doe.
    expect(rendered.html).toContain(">Hello <!-- -->John Doe<!-- -->, count=<!-- -->3</p>");
  });

  it("renders stored ones by id, with the project's theme when none is named", async () => {
    const { templates } = await get<{ templates: { id: string; display_name: string }[] }>("/internal/email-templates");
    const verification = templates.find((t) => t.display_name === "Email Verification")!;
    const rendered = await expectJson<{ html: string; subject?: string }>(
      await post("/emails/render-email", { template_id: verification.id }),
    );
    expect(rendered.subject).toBe(`Verify your email at ${DEV.display_name}`);
    expect(rendered.html).toContain("Verify my email");
    expect(rendered.html).toContain("background-color:rgb(250,251,251)");
    const dark = await expectJson<{ html: string }>(
      await post("/emails/render-email", { template_id: verification.id, theme_id: DEFAULT_DARK_THEME_ID }),
    );
    expect(dark.html).toContain("background-color:rgb(50,50,50)");
    for (const [body, text] of [
      [
        { template_id: verification.id, theme_id: "00000000-0000-4000-8000-000000000000" },
        "No theme found with given id",
      ],
      [{ template_id: "00000000-0000-4000-8000-000000000000" }, "No template found with given id"],
    ] as const) {
      const response = await post("/emails/render-email", body);
      expect([response.status, await response.text()]).toEqual([400, text]);
    }
  });

  it("needs a template, and reports the compiler's message for bad source", async () => {
    await expectKnownError(await post("/emails/render-email", { theme_id: false }), "SCHEMA_ERROR", 400);
    const both = await expectKnownError(
      await post("/emails/render-email", {
        theme_id: DEFAULT_THEME_ID,
        theme_tsx_source: THEME,
        template_tsx_source: TEMPLATE,
      }),
      "SCHEMA_ERROR",
      400,
    );
    expect(both.error).toBe(
      [
        "Request validation failed on POST /api/v1/emails/render-email:",
        "  - body is not matched by any of the provided schemas:",
        "    Schema 0:",
        "      body.template_id must be defined",
        "      body contains unknown properties: theme_tsx_source, template_tsx_source",
        "    Schema 1:",
        "      body.template_id must be defined",
        "      body contains unknown properties: theme_id, template_tsx_source",
        "    Schema 2:",
        "      body contains unknown properties: theme_tsx_source",
        "    Schema 3:",
        "      body contains unknown properties: theme_id",
      ].join("\n"),
    );
    const thrown = await post("/emails/render-email", {
      theme_tsx_source: 'export function EmailTheme() { throw new Error("Theme rendering error"); }',
      template_tsx_source: TEMPLATE,
    });
    expect((await expectKnownError(thrown, "EMAIL_RENDERING_ERROR", 400)).error).toContain("Theme rendering error");
    const arktype = await post("/emails/render-email", {
      theme_id: false,
      template_tsx_source:
        'import { type } from "arktype"; export const variablesSchema = type({ n: "number" }); export function EmailTemplate() { return <p>ok</p>; }',
    });
    expect((await expectJson<{ html: string }>(arktype)).html).toContain("<p>ok</p>");
    const body = await expectKnownError(
      await post("/emails/render-email", {
        theme_id: false,
        template_tsx_source: "export function EmailTemplate() { return <div> }",
      }),
      "EMAIL_RENDERING_ERROR",
      400,
    );
    expect(String(body.details?.error)).toMatch(
      /^Build failed with \d+ errors?:\nvirtual:\/template\.tsx:1:\d+: ERROR: /,
    );
  });
});

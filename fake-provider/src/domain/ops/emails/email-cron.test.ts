import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  admin,
  api,
  expectJson,
  expectKnownError,
  newProvider,
  server,
  type TestProvider,
} from "../../../test-support/api.ts";
import { CRON_SECRET } from "./email-cron.ts";

/** The real service's cron endpoints for email: a bearer secret, no project. */

let provider: TestProvider;
beforeEach(() => {
  provider = newProvider();
});
afterEach(() => expect(provider.unexpected).toEqual([]));

const bearer = { raw: { authorization: `Bearer ${CRON_SECRET}` } };

describe("GET /internal/email-queue-step", () => {
  it("needs the authorization header (SCHEMA_ERROR), refuses a wrong secret with a plain 401 and steps with the right one", async () => {
    const missing = await expectKnownError(await api(provider, "/internal/email-queue-step"), "SCHEMA_ERROR", 400);
    expect(missing.error).toBe(
      "Request validation failed on GET /api/v1/internal/email-queue-step:\n  - headers.authorization must be defined",
    );
    const wrong = await api(provider, "/internal/email-queue-step", { raw: { authorization: "Bearer nope" } });
    expect([wrong.status, await wrong.text()]).toEqual([401, "Unauthorized"]);
    expect(await expectJson(await api(provider, "/internal/email-queue-step?only_one_step=true", bearer))).toEqual({
      ok: true,
    });
  });
});

describe("POST /internal/failed-emails-digest", () => {
  it("refuses a wrong or malformed secret, and lists nothing when no email failed", async () => {
    for (const authorization of ["Bearer some_invalid_secret", "InvalidFormat"]) {
      const refused = await api(provider, "/internal/failed-emails-digest", {
        method: "POST",
        headers: server(),
        raw: { authorization },
      });
      expect([refused.status, await refused.text()]).toEqual([401, "Unauthorized"]);
    }
    expect((await api(provider, "/internal/failed-emails-digest", { method: "POST", headers: server() })).status).toBe(
      400,
    );
    const digest = await expectJson(
      await api(provider, "/internal/failed-emails-digest?dry_run=true", { method: "POST", ...bearer }),
    );
    expect(digest).toEqual({ success: true, failed_emails_by_tenancy: [] });
  });
});

describe("POST /internal/rewrite-template-source", () => {
  const rewrite = async (source: string) =>
    (
      await expectJson<{ tsx_source: string }>(
        await api(provider, "/internal/rewrite-template-source", {
          headers: admin(),
          json: { template_tsx_source: source },
        }),
      )
    ).tsx_source;

  it("turns the preview variables into a constant and drops the schema, whatever its name", async () => {
    const out = await rewrite(`import { type } from "arktype";
export const profileSchema = type({ link: "string", isActive: "boolean" });
export function EmailTemplate({ user, variables }: any) {
  return <div>{user.displayName} {variables.link}</div>;
}
EmailTemplate.PreviewVariables = { link: "https://example.com/{x}", isActive: true } satisfies typeof profileSchema.infer;
`);
    expect(out).toContain("export function EmailTemplate({ user }: any) {");
    expect(out).toContain('const variables = { link: "https://example.com/{x}", isActive: true };');
    expect(out).not.toMatch(/PreviewVariables|profileSchema|arktype/);
    // What comes out renders as a draft.
    const rendered = await expectJson<{ html: string }>(
      await api(provider, "/emails/render-email", {
        headers: admin(),
        json: { template_tsx_source: out, theme_id: false },
      }),
    );
    expect(rendered.html).toContain("https://example.com/{x}");
  });

  it("passes a template without a variables schema through, and refuses a source without EmailTemplate", async () => {
    const source = "export function EmailTemplate({ user }: any) {\n  return <div>Hello {user.displayName}</div>;\n}\n";
    expect(await rewrite(source)).toBe(source);
    const refused = await api(provider, "/internal/rewrite-template-source", {
      headers: admin(),
      json: { template_tsx_source: "export const x = 1;" },
    });
    await expectKnownError(refused, "TEMPLATE_SOURCE_REWRITE_ERROR", 400);
  });
});

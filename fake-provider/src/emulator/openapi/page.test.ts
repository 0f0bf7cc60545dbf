import { describe, expect, it } from "vitest";
import { operations } from "@authsim/sdk/contract";
import { newProvider, request } from "../../test-support/api.ts";
import { openApiPath } from "./document.ts";
import { escapeHtml, schemaHtml } from "./schema-html.ts";

/** GET /__emulator/openapi.json and the reference page GET /__emulator/api-reference, served by the provider itself. */
describe("the OpenAPI endpoints", () => {
  it("serve the document under the control prefix, naming the provider's API URL, readable from other origins", async () => {
    const provider = newProvider({ apiBaseUrl: "http://127.0.0.1:9999" });
    const response = await request(provider, "/__emulator/openapi.json");
    expect(response.status).toBe(200);
    expect(response.headers.get("access-control-allow-origin")).toBe("*");
    const doc = (await response.json()) as {
      openapi: string;
      servers: { url: string }[];
      paths: Record<string, unknown>;
    };
    expect(doc.openapi).toBe("3.1.0");
    expect(doc.servers[0]?.url).toBe("http://127.0.0.1:9999/api/v1");
    // Not on the API itself: an unknown /api/v1 path keeps upstream's plain-text 404.
    expect((await request(provider, "/api/v1/openapi.json")).status).toBe(404);
  });

  it("render a page listing every operation's method and path, with nothing loaded from anywhere", async () => {
    const response = await request(newProvider(), "/__emulator/api-reference");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(response.headers.get("content-security-policy")).toContain("default-src 'none'");
    const html = await response.text();
    for (const operation of operations) {
      const method = operation.method;
      expect(html, operation.id).toContain(
        `<span class="method ${method}">${method}</span><span class="path">${escapeHtml(openApiPath(operation.path))}</span>`,
      );
      expect(html).toContain(`id="op-${operation.id}"`);
    }
    expect(html).toMatch(/<span id="count">\d+<\/span> operations/);
    expect(html).not.toMatch(/<(script|img|link|iframe)[^>]+(src|href)=/i);
    expect(html).toContain('<div class="schema" id="schema-serverUser">');
  });
});

describe("schemas as HTML", () => {
  it("shows fields with their types, requiredness and constraints, links references, and escapes everything", () => {
    const html = schemaHtml({
      type: "object",
      properties: {
        id: { $ref: "#/components/schemas/uuidV4" },
        name: { type: ["string", "null"], maxLength: 5 },
        tag: { enum: ["<a>", "b"] },
      },
      required: ["id"],
      additionalProperties: false,
    });
    expect(html).toContain(
      '<code class="field">id</code> <span class="required">required</span>: <a class="ref" href="#schema-uuidV4">uuidV4</a>',
    );
    expect(html).toContain('string | null <span class="constraints">(max length 5)</span>');
    expect(html).toContain("&quot;&lt;a&gt;&quot;");
    expect(html).not.toContain("<a>");
    expect(schemaHtml({ anyOf: [{ type: "string" }, { type: "null" }] })).toContain(
      'one of:<ol class="alternatives"><li>string</li><li>null</li></ol>',
    );
  });
});

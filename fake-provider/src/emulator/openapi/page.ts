import type { OpenApiDocument, OpenApiOperation, OpenApiParameter } from "./document.ts";
import { escapeHtml, schemaAnchor, schemaHtml } from "./schema-html.ts";
import { SCHEMA_REF, type JsonSchema } from "./schemas.ts";

/**
 * The browsable API reference (GET /__emulator/api-reference): plain server-rendered HTML of the OpenAPI document, no
 * CDN and no requests (its CSP allows none). Operations are grouped by area; each shows method, path, access, its
 * parameters, body and answers, with the referenced schemas expanded one level and linked below. A small inline script
 * filters operations by the words typed; without scripts everything is simply listed.
 */
const STYLE = `
body { font: 14px/1.45 system-ui, sans-serif; margin: 0; color: #1d2330; background: #f6f7f9; }
header { background: #fff; border-bottom: 1px solid #d8dce3; padding: 0.6rem 1.2rem; z-index: 1; }
header h1 { font-size: 1.2rem; margin: 0 0 0.3rem; }
header nav { font-size: 12.5px; margin: 0.2rem 0 0.4rem; }
header input { width: min(40rem, 100%); padding: 0.35rem 0.5rem; font: inherit; box-sizing: border-box; }
main { padding: 0 1.2rem 3rem; max-width: 80rem; }
h2 { margin: 1.6rem 0 0.5rem; font-size: 1.1rem; }
article { background: #fff; border: 1px solid #d8dce3; border-radius: 6px; margin: 0.35rem 0; }
summary { cursor: pointer; padding: 0.4rem 0.6rem; display: flex; gap: 0.6rem; align-items: baseline; flex-wrap: wrap; }
.body { padding: 0.2rem 0.9rem 0.7rem; border-top: 1px solid #eceef2; }
.method { font: 600 12px ui-monospace, monospace; min-width: 4.2rem; padding: 0.1rem 0.3rem; border-radius: 3px; color: #fff; text-align: center; }
.GET { background: #2f7d32; } .POST { background: #1f5fbf; } .PATCH { background: #8a5a00; } .PUT { background: #6a3fb5; } .DELETE { background: #b3261e; }
.path { font: 13px ui-monospace, monospace; }
.badge { font-size: 12px; padding: 0 0.4rem; border-radius: 8px; background: #eceef2; }
.badge.todo { background: #fde2e1; }
.summary { color: #5a6272; }
code { font: 12.5px ui-monospace, monospace; }
.required { color: #b3261e; font-size: 12px; }
.constraints, .description { color: #5a6272; }
ul.fields, ol.alternatives { margin: 0.2rem 0 0.2rem 0.4rem; padding-left: 1rem; }
h3 { font-size: 0.95rem; margin: 0.7rem 0 0.2rem; }
.schema { background: #fff; border: 1px solid #d8dce3; border-radius: 6px; padding: 0.4rem 0.8rem; margin: 0.35rem 0; }
[hidden] { display: none !important; }
/* Long paths, codes and schema names wrap rather than widen the page (it fits a 360 px phone). */
main, header { overflow-wrap: anywhere; }
pre { overflow-x: auto; max-width: 100%; }
@media (max-width: 600px) { main { padding: 0 0.6rem 2rem; } header { padding: 0.5rem 0.6rem; } .method { min-width: 3.4rem; } }
`;

const FILTER_SCRIPT = `
const input = document.getElementById("filter");
input.addEventListener("input", () => {
  const words = input.value.toLowerCase().split(/\\s+/).filter(Boolean);
  for (const op of document.querySelectorAll("article[data-search]")) op.hidden = !words.every((w) => op.dataset.search.includes(w));
  for (const area of document.querySelectorAll("section.area")) area.hidden = !area.querySelector("article:not([hidden])");
  document.getElementById("count").textContent = document.querySelectorAll("article[data-search]:not([hidden])").length;
});
`;

/** A component reference is expanded one level where an operation uses it; other schemas are shown as they are. */
function expanded(schema: JsonSchema | undefined, components: Record<string, JsonSchema>): string {
  const ref = typeof schema?.$ref === "string" ? schema.$ref : null;
  if (!ref) return schemaHtml(schema);
  const name = ref.slice(SCHEMA_REF.length);
  return `<div><a class="ref" href="#${escapeHtml(schemaAnchor(name))}">${escapeHtml(name)}</a>: ${schemaHtml(components[name])}</div>`;
}

function parametersHtml(parameters: OpenApiParameter[]): string {
  if (parameters.length === 0) return "";
  const rows = parameters.map(
    (p) =>
      `<li><code class="field">${escapeHtml(p.name)}</code> <span class="badge">${p.in}</span>${p.required ? ' <span class="required">required</span>' : ""}: ${schemaHtml(p.schema)}</li>`,
  );
  return `<h3>Parameters</h3><ul class="fields">${rows.join("")}</ul>`;
}

function responsesHtml(op: OpenApiOperation, doc: OpenApiDocument): string {
  const rows = Object.entries(op.responses).map(([status, raw]) => {
    // Shared answers (the known error, 501) are components.responses: shown by their description and schema link.
    const shared = (raw as { $ref?: string }).$ref?.split("/").pop();
    const answer = (shared ? doc.components.responses[shared] : raw) as {
      description?: string;
      content?: Record<string, { schema?: JsonSchema }>;
    };
    const [type, media] = Object.entries(answer.content ?? {})[0] ?? [];
    if (shared)
      return `<li><b>${escapeHtml(status)}</b> ${escapeHtml(answer.description ?? "")} ${schemaHtml(media?.schema)}</li>`;
    const body = media ? ` <code>${escapeHtml(type!)}</code> ${expanded(media.schema, doc.components.schemas)}` : "";
    return `<li><b>${escapeHtml(status)}</b> ${escapeHtml(answer.description ?? "")}${body}</li>`;
  });
  return `<h3>Answers</h3><ul class="fields">${rows.join("")}</ul>`;
}

function operationHtml(path: string, method: string, op: OpenApiOperation, doc: OpenApiDocument): string {
  const upper = method.toUpperCase();
  const search = [upper, path, op.operationId, op.summary, op.tags[0], op["x-authsim-access"]].join(" ").toLowerCase();
  const body = op.requestBody
    ? (() => {
        const [type, media] = Object.entries(op.requestBody.content)[0]!;
        return `<h3>Body${op.requestBody.required ? "" : " (optional)"} <code>${escapeHtml(type)}</code></h3>${expanded(media.schema, doc.components.schemas)}`;
      })()
    : "";
  return `<article id="op-${escapeHtml(op.operationId)}" data-search="${escapeHtml(search)}"><details><summary>
<span class="method ${upper}">${upper}</span><span class="path">${escapeHtml(path)}</span><span class="summary">${escapeHtml(op.summary)}</span>
<span class="badge">${escapeHtml(op["x-authsim-access"])}</span>${op["x-authsim-implemented"] ? "" : '<span class="badge todo">501 in authsim</span>'}
</summary><div class="body"><p>${escapeHtml(op.description)} Operation id <code>${escapeHtml(op.operationId)}</code>.</p>
${parametersHtml(op.parameters)}${body}${responsesHtml(op, doc)}</div></details></article>`;
}

export function apiReferencePage(doc: OpenApiDocument, jsonUrl: string): string {
  const byArea = new Map<string, string[]>();
  let count = 0;
  for (const [path, methods] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(methods)) {
      count += 1;
      const area = op.tags[0] ?? "other";
      byArea.set(area, [...(byArea.get(area) ?? []), operationHtml(path, method, op, doc)]);
    }
  }
  const areas = [...byArea].map(
    ([area, ops]) =>
      `<section class="area" id="area-${escapeHtml(area)}"><h2>${escapeHtml(area)} (${ops.length})</h2>${ops.join("\n")}</section>`,
  );
  const schemas = Object.entries(doc.components.schemas).map(
    ([name, schema]) =>
      `<div class="schema" id="${escapeHtml(schemaAnchor(name))}"><h3>${escapeHtml(name)}</h3>${schemaHtml(schema)}</div>`,
  );
  const server = doc.servers[0]?.url ?? "";
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(doc.info.title)}</title>
<meta name="viewport" content="width=device-width, initial-scale=1"><style>${STYLE}</style></head><body>
<header><h1>${escapeHtml(doc.info.title)}</h1>
<div>Server <code>${escapeHtml(server)}</code> · <a href="${escapeHtml(jsonUrl)}">OpenAPI 3.1 JSON</a> · <span id="count">${count}</span> operations</div>
<nav>${[...byArea.keys()].map((area) => `<a href="#area-${escapeHtml(area)}">${escapeHtml(area)}</a>`).join(" · ")} · <a href="#schemas">schemas</a></nav>
<input id="filter" type="search" placeholder="Filter: words in the method, path, operation id, area or access (e.g. post teams)" aria-label="Filter operations"></header>
<main><p>${escapeHtml(doc.info.description)}</p>${areas.join("\n")}
<section id="schemas"><h2>Schemas</h2>${schemas.join("\n")}</section></main>
<script>${FILTER_SCRIPT}</script></body></html>`;
}

import { HOSTED_CONFIG_ELEMENT_ID, type HostedConfig } from "./src/hosted-config.ts";

/**
 * The config as JSON inside the page (`<script type="application/json">`, which the browser never runs). JSON alone is
 * not safe there: a project name holding `</script>` or `<!--` would end or bend the element, so every `<`, `>` and
 * `&` is written as its \u escape (JSON.parse reads them back unchanged), and so are U+2028/2029.
 */
export function configJson(config: HostedConfig): string {
  return JSON.stringify(config).replace(
    /[<>&\u2028\u2029]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}

/** The page with its config inlined, before `</head>` (a page without a head gets it at its end). */
export function inlineConfig(html: string, config: HostedConfig): string {
  const element = `<script type="application/json" id="${HOSTED_CONFIG_ELEMENT_ID}">${configJson(config)}</script>`;
  const head = html.indexOf("</head>");
  return head < 0 ? `${html}${element}` : `${html.slice(0, head)}${element}\n${html.slice(head)}`;
}

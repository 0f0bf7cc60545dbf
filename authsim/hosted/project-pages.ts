import type { AskedProject, HostedProject } from "./project-choice.ts";
import { forgetProject } from "./project-choice.ts";
import { onProjectHost, withProject } from "./src/hosted-config.ts";

/**
 * The server's own answers when the hosted pages cannot start on a project: plain HTML (no scripts), so the person sees
 * why and where to go instead of a blank page or a page signing in to the wrong project.
 */

const escape = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function page(status: number, title: string, body: string, headers: Record<string, string> = {}): Response {
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escape(title)} — authsim</title></head>
<body style="font-family: system-ui, sans-serif; max-width: 40rem; margin: 3rem auto; line-height: 1.5;">
<h1>${escape(title)}</h1>
${body}
</body></html>
`;
  return new Response(html, {
    status,
    headers: { "content-type": "text/html; charset=utf-8", "cache-control": "no-store", ...headers },
  });
}

/**
 * 404 for a project the emulator does not have, with links to the same page on each project it has. A remembered
 * choice that went stale (the emulator was reset or restarted, or another emulator on this host set it) is forgotten,
 * so the next visit is on the dev project again.
 */
export function unknownProjectPage(address: URL, asked: AskedProject, projects: readonly HostedProject[]): Response {
  const why =
    asked.via === "query" || asked.via === "host"
      ? `The address asks for the project <code>${escape(asked.id)}</code>, which this emulator does not have.`
      : `This browser last chose the project <code>${escape(asked.id)}</code>, which this emulator does not have (was it reset or restarted?). The choice is forgotten now.`;
  // On a project's own address the host names the project, so the other projects' pages are on their own addresses.
  const link = (id: string) =>
    asked.via === "host" ? onProjectHost(new URL(address.pathname, address), id) : withProject(address.pathname, id);
  const links = projects.map(
    (p) => `<li><a href="${escape(link(p.id))}">${escape(p.display_name)}</a> <code>${escape(p.id)}</code></li>`,
  );
  const body = `<p>${why}</p>
${links.length > 0 ? `<p>Open this page on one of its projects:</p>\n<ul>\n${links.join("\n")}\n</ul>` : "<p>This emulator has no projects.</p>"}
<p>The <a href="${escape(dashboard(address, asked))}">dashboard</a> lists the projects and creates new ones.</p>`;
  return page(404, "No such project", body, asked.via === "cookie" ? { "set-cookie": forgetProject() } : {});
}

/** The dashboard is on the emulator's own name, never on a project's address. */
function dashboard(address: URL, asked: AskedProject): string {
  if (asked.via !== "host") return "/#projects";
  const home = new URL("/#projects", address);
  home.hostname = "localhost";
  return home.href;
}

/** 502 when the emulator's control endpoints could not be read (the lookup's reason, for the person to act on). */
export function unreachablePage(error: unknown): Response {
  const reason = error instanceof Error ? error.message : String(error);
  return page(502, "The hosted pages could not read the emulator's projects", `<p>${escape(reason)}</p>`);
}

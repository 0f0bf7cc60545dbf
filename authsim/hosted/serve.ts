import { bundleHandler, type BundleHandler } from "../bundles/serve-bundle.ts";
import { inlineConfig } from "./inline-config.ts";
import {
  askedProject,
  clientConfig,
  listProjects,
  rememberProject,
  trustsOrigin,
  type AskedProject,
  type EmulatorFetch,
  type HostedClientConfig,
  type HostedProject,
} from "./project-choice.ts";
import { unknownProjectPage, unreachablePage } from "./project-pages.ts";
import { HOSTED_BASE, HOSTED_CONFIG_PATH, isHostedPage, type HostedConfig } from "./src/hosted-config.ts";

/**
 * Node-only: the hosted handler pages at /handler/* and /app, their assets under /__emulator/hosted/, and the config
 * they start from. cli.ts puts this in front of the emulator with the dashboard. The pages serve any project of the
 * emulator: `?project_id=` on a page picks it and a cookie remembers it (project-choice.ts); else the dev project.
 */

/**
 * The config is built per request: the API base is the origin the browser used, so the pages, their cookies and the
 * API share one origin whether the person opened 127.0.0.1 or localhost (WebAuthn refuses an IP address as its
 * relying-party id, so passkeys need the localhost name).
 */
export function hostedConfig(request: Request, project: HostedProject, client: HostedClientConfig): HostedConfig {
  return {
    baseUrl: apiOrigin(request),
    projectId: project.id,
    projectName: project.display_name,
    publishableClientKey: project.publishable_client_key,
    originTrusted: trustsOrigin(request, client),
    allowLocalhost: client.allow_localhost,
    project: client.project,
  };
}

/**
 * Where the pages call the API. On a project's own address (`<projectId>.localhost`) that host serves the hosted pages
 * only (hostedOnly below), so the API is the emulator under its localhost name, on the same port.
 */
function apiOrigin(request: Request): string {
  const url = new URL(request.url);
  if (!onProjectAddress(request)) return url.origin;
  url.hostname = "localhost";
  return url.origin;
}

const onProjectAddress = (request: Request) => askedProject(request).via === "host";

/**
 * A project's own address answers its hosted pages and their assets, nothing else: the name exists for the kit's hosted
 * mode, and the API, the control plane and the dashboard stay on the emulator's own names, so the extra names widen
 * nothing but the sign-in pages. Null when the request may go on.
 */
export function hostedOnly(request: Request): Response | null {
  if (!onProjectAddress(request)) return null;
  const { pathname } = new URL(request.url);
  if (isHostedPage(pathname) || pathname.startsWith(HOSTED_BASE)) return null;
  const origin = apiOrigin(request);
  return new Response(
    `This address serves the project's hosted sign-in pages (/handler/…) only. The API, the controls and the dashboard are at ${origin}.`,
    {
      status: 404,
      headers: { "content-type": "text/plain; charset=utf-8", ...noStore },
    },
  );
}

/** The config of a project the emulator has, read fresh per request (the dashboard may have changed it meanwhile). */
async function configFor(emulator: EmulatorFetch, request: Request, project: HostedProject): Promise<HostedConfig> {
  return hostedConfig(request, project, await clientConfig(emulator, request, project.id));
}

const UNBUILT_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>authsim sign-in</title></head>
<body style="font-family: system-ui, sans-serif; max-width: 32rem; margin: 3rem auto;">
<h1>The hosted pages are not built</h1>
<p>The dev server builds them on start (<code>npm start</code>); its banner says why the build failed.</p>
</body></html>
`;

const noStore = { "cache-control": "no-store" };

/** What the request asks for, the emulator's projects, and the asked one among them (null when it has no such project). */
async function resolve(
  emulator: EmulatorFetch,
  request: Request,
): Promise<{ asked: AskedProject; project: HostedProject | null; projects: HostedProject[] }> {
  const asked = askedProject(request);
  const projects = await listProjects(emulator, request);
  return { asked, project: projects.find((p) => p.id === asked.id) ?? null, projects };
}

/** `emulator` is how the server reads the emulator's projects: the emulator app's own fetch (`provider.app.fetch`). */
export function hostedHandler(distDir: string, emulator: EmulatorFetch): BundleHandler {
  const files = bundleHandler({
    dist: distDir,
    base: HOSTED_BASE,
    isPage: isHostedPage,
    unbuilt: () =>
      new Response(UNBUILT_PAGE, { status: 503, headers: { "content-type": "text/html; charset=utf-8", ...noStore } }),
  });

  const config = async (request: Request): Promise<Response> => {
    const { asked, project } = await resolve(emulator, request);
    if (!project) {
      // The page shows this message (main.tsx); the page request itself already answered the HTML error page.
      const error = `This emulator has no project ${asked.id}.`;
      return Response.json({ error }, { status: 404, headers: noStore });
    }
    return Response.json(await configFor(emulator, request, project), { headers: noStore });
  };

  const hostedPage = async (request: Request, pathname: string): Promise<Response | null> => {
    const { asked, project, projects } = await resolve(emulator, request);
    if (!project) return unknownProjectPage(new URL(request.url), asked, projects);
    const page = await files(request, pathname);
    if (!page) return page;
    const headers = new Headers(page.headers);
    // Remembered for the pages' own redirects, which drop the parameter (sign-in → /app, links between pages).
    if (asked.via === "query") headers.append("set-cookie", rememberProject(project.id));
    if (page.status !== 200) return new Response(page.body, { status: page.status, headers });
    // The page comes with its config, so its first render is the page itself rather than a loading state.
    headers.delete("content-length");
    return new Response(inlineConfig(await page.text(), await configFor(emulator, request, project)), {
      status: 200,
      headers,
    });
  };

  return async (request, pathname) => {
    try {
      if (pathname === HOSTED_CONFIG_PATH) return await config(request);
      if (isHostedPage(pathname)) return await hostedPage(request, pathname);
    } catch (error) {
      if (pathname !== HOSTED_CONFIG_PATH) return unreachablePage(error);
      const reason = error instanceof Error ? error.message : String(error);
      return Response.json(
        { error: `The hosted pages could not read the emulator's projects: ${reason}` },
        { status: 502, headers: noStore },
      );
    }
    return await files(request, pathname);
  };
}

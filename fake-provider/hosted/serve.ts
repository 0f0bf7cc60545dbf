import { devProjectSeed } from "@authsim/fixtures";
import { bundleHandler, type BundleHandler } from "../bundles/serve-bundle.ts";
import { HOSTED_BASE, HOSTED_CONFIG_PATH, isHostedPage, type HostedConfig } from "./src/hosted-config.ts";

/**
 * Node-only: the hosted handler pages of the dev project at /handler/* and /app, their assets under
 * /__emulator/hosted/, and the config they start from. cli.ts puts this in front of the emulator with the dashboard.
 */

/**
 * The config is built per request: the API base is the origin the browser used, so the pages, their cookies and the
 * API share one origin whether the person opened 127.0.0.1 or localhost (WebAuthn refuses an IP address as its
 * relying-party id, so passkeys need the localhost name).
 */
export function hostedConfig(request: Request): HostedConfig {
  return {
    baseUrl: new URL(request.url).origin,
    projectId: devProjectSeed.id,
    projectName: devProjectSeed.display_name,
    publishableClientKey: devProjectSeed.keys.publishable_client_key,
  };
}

const UNBUILT_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>authsim sign-in</title></head>
<body style="font-family: system-ui, sans-serif; max-width: 32rem; margin: 3rem auto;">
<h1>The hosted pages are not built</h1>
<p>The dev server builds them on start (<code>npm start</code>); its banner says why the build failed.</p>
</body></html>
`;

export function hostedHandler(distDir: string): BundleHandler {
  const files = bundleHandler({
    dist: distDir,
    base: HOSTED_BASE,
    isPage: isHostedPage,
    unbuilt: () => new Response(UNBUILT_PAGE, { status: 503, headers: { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" } }),
  });
  return async (request, pathname) => {
    if (pathname === HOSTED_CONFIG_PATH) {
      return new Response(JSON.stringify(hostedConfig(request)), { headers: { "content-type": "application/json", "cache-control": "no-store" } });
    }
    return await files(request, pathname);
  };
}

import { devProjectSeed as dev } from "@authsim/fixtures";
import { describeHostedMode } from "./hosted-mode-flows.ts";
import { kitApps } from "./kit-apps.ts";
import { serveStaticApp } from "./static-server.ts";

/**
 * The Vite app on the published @stackframe/react (../react-vite) in hosted mode: the same build as its own test,
 * served with the hosted pages' address in /runtime-config.js, which makes every handler page the hosted one.
 */
describeHostedMode({
  kit: "react-vite",
  title: "the published @stackframe/react in a Vite app",
  protectedPath: "/protected",
  startApp: async (apiUrl, hostedHandlerUrlTemplate) => {
    const served = await serveStaticApp(kitApps["react-vite"].outDir, {
      apiUrl,
      projectId: dev.id,
      publishableClientKey: dev.keys.publishable_client_key,
      hostedHandlerUrlTemplate,
    });
    return { url: served.url, stop: served.close };
  },
});

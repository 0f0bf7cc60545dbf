import { kitApps } from "./kit-apps.ts";
import { describePublishedKit } from "./kit-flows.ts";
import { serveStaticApp } from "./static-server.ts";
import { devProjectSeed as dev } from "@authsim/fixtures";

/**
 * The published @stackframe/react in a Vite + React Router app (../react-vite), built once by the global setup and
 * served here with the emulator's address in /runtime-config.js.
 */
describePublishedKit({
  kit: "react-vite",
  title: "the published @stackframe/react in a Vite app",
  startApp: async (apiUrl) => {
    const served = await serveStaticApp(kitApps["react-vite"].outDir, {
      apiUrl,
      projectId: dev.id,
      publishableClientKey: dev.keys.publishable_client_key,
    });
    return { url: served.url, stop: served.close };
  },
  protectedPages: [{ path: "/protected", after: "back" }],
});

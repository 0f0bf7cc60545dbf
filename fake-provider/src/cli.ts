import { serve } from "@hono/node-server";
import { devProjectSeed } from "@authsim/fixtures";
import { createFakeProvider } from "./app.ts";
import { envLines, parseCliArgs } from "./cli-args.ts";
import { CONTROL_PREFIX } from "./control/routes.ts";

/** `npm start`: the emulator as a local dev server, seeded with the dev project, printing its keys. Node-only edge. */
let options;
try {
  options = parseCliArgs(process.argv.slice(2), process.env);
} catch (error) {
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(2);
}

const displayHost = options.host === "0.0.0.0" || options.host === "::" ? "localhost" : options.host;
const provisionalUrl = `http://${displayHost}:${options.port}`;
const provider = createFakeProvider({
  apiBaseUrl: provisionalUrl,
  hashCost: options.hashCost,
  accessTokenLifetimeSeconds: options.accessTokenLifetimeSeconds,
});

const server = serve({ fetch: provider.app.fetch, port: options.port, hostname: options.host }, (info) => {
  const apiUrl = `http://${displayHost}:${info.port}`;
  // With --port 0 the real port is known only now; token issuers must name it.
  provider.settings.apiBaseUrl = apiUrl;
  const keys = devProjectSeed.keys;
  console.log(
    [
      `authsim fake provider listening on ${apiUrl} (API at ${apiUrl}/api/v1, controls at ${apiUrl}${CONTROL_PREFIX})`,
      `Password hashing: ${options.hashCost}. Everything is in memory and lost on exit.`,
      "",
      `Dev project "${devProjectSeed.display_name}" — paste into your app's env:`,
      "",
      ...envLines(apiUrl, { id: devProjectSeed.id, publishable: keys.publishable_client_key, secret: keys.secret_server_key, admin: keys.super_secret_admin_key }),
      "",
    ].join("\n"),
  );
});

server.on("error", (error: NodeJS.ErrnoException) => {
  console.error(error.code === "EADDRINUSE" ? `Port ${options.port} is in use: pass --port or set PORT.` : error.message);
  process.exit(1);
});

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    server.close();
    process.exit(0);
  });
}

import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { serve } from "@hono/node-server";
import { devProjectSeed } from "@authsim/fixtures";
import { seededRandom } from "@authsim/sdk/runtime";
import { createFakeProvider, type ProviderSnapshot } from "./app.ts";
import { envLines, parseCliArgs } from "./cli-args.ts";
import { startupRefusal } from "./cli-safety.ts";
import { CONTROL_PREFIX } from "./control/routes.ts";
import { json } from "./http/respond.ts";

/** `npm start`: the emulator as a local dev server, seeded with the dev project, printing its keys. Node-only edge. */
let options;
try {
  options = parseCliArgs(process.argv.slice(2), process.env);
} catch (error) {
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(2);
}

const refusal = startupRefusal(options);
if (refusal) {
  console.error(refusal);
  process.exit(2);
}

const displayHost = options.host === "0.0.0.0" || options.host === "::" ? "localhost" : options.host;
const provisionalUrl = `http://${displayHost}:${options.port}`;
// A seeded source replays the same sequence on every start: a restored snapshot records how far it had got, so ids
// drawn after the restore never repeat ids already in the state.
let drawn = 0;
const seeded = options.deterministic !== null ? seededRandom(options.deterministic) : null;
const random = seeded && {
  bytes: (length: number) => {
    drawn += length;
    return seeded.bytes(length);
  },
};
const provider = createFakeProvider({
  apiBaseUrl: provisionalUrl,
  hashCost: options.hashCost,
  accessTokenLifetimeSeconds: options.accessTokenLifetimeSeconds,
  ...(random ? { ids: random } : {}),
});

const snapshotFile = options.snapshotFile;
interface SnapshotFile extends ProviderSnapshot {
  randomBytesDrawn?: number;
}
function saveSnapshot(): void {
  if (!snapshotFile) return;
  const file: SnapshotFile = { ...provider.snapshot(), ...(seeded ? { randomBytesDrawn: drawn } : {}) };
  writeFileSync(snapshotFile, JSON.stringify(file, null, 2));
}
if (snapshotFile && existsSync(snapshotFile)) {
  try {
    const file = JSON.parse(readFileSync(snapshotFile, "utf8")) as SnapshotFile;
    provider.restore(file);
    if (seeded && file.randomBytesDrawn && file.randomBytesDrawn > drawn) random!.bytes(file.randomBytesDrawn - drawn);
  } catch (error) {
    console.error(`Could not load the snapshot ${snapshotFile}: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(2);
  }
}
// Saving to a file is the Node edge's business, so this control endpoint exists only in the dev server.
provider.app.post(`${CONTROL_PREFIX}/snapshot/save`, () => {
  if (!snapshotFile) return json({ error: "Start the server with --snapshot FILE to save snapshots to a file." }, 400);
  saveSnapshot();
  return json({ success: true, file: snapshotFile });
});

const server = serve({ fetch: provider.app.fetch, port: options.port, hostname: options.host }, (info) => {
  const apiUrl = `http://${displayHost}:${info.port}`;
  // With --port 0 the real port is known only now; token issuers must name it.
  provider.settings.apiBaseUrl = apiUrl;
  const keys = devProjectSeed.keys;
  console.log(
    [
      `authsim fake provider listening on ${apiUrl} (API at ${apiUrl}/api/v1, controls at ${apiUrl}${CONTROL_PREFIX})`,
      `Password hashing: ${options.hashCost}.${options.deterministic !== null ? ` Deterministic ids (seed "${options.deterministic}").` : ""}`,
      snapshotFile ? `State is loaded from and saved to ${snapshotFile}.` : "Everything is in memory and lost on exit (--snapshot FILE keeps it).",
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
    saveSnapshot();
    server.close();
    process.exit(0);
  });
}

/**
 * Starts the real dashboard built by build.sh on the real development port for it (<prefix>01), in front of authsim
 * started with `npm start -- --port <prefix>02` (prefix 81: `npm start` as it is, on 8102, and the dashboard on 8101).
 *
 *   npx tsx --conditions=@authsim/source scripts/real-dashboard/start.ts [--prefix 81]
 *
 * Sign in at http://localhost:<prefix>01 with an account of authsim's `internal` project (sign up on that page).
 */
import { internalProjectSeed } from "@authsim/fixtures";
import { missingBuild, startRealDashboard } from "./real-dashboard.ts";

const args = process.argv.slice(2);
const prefixAt = args.indexOf("--prefix");
const prefix = prefixAt >= 0 ? args[prefixAt + 1] : "81";
if (!prefix || !/^\d{1,3}$/.test(prefix)) throw new Error("--prefix takes the ports' leading digits, e.g. 81");
const missing = missingBuild();
if (missing) throw new Error(`Cannot start the real dashboard: ${missing}`);

const keys = internalProjectSeed.keys;
const dashboard = await startRealDashboard({
  apiUrl: `http://localhost:${prefix}02`,
  port: Number(`${prefix}01`),
  portPrefix: prefix,
  publishableClientKey: keys.publishable_client_key,
  secretServerKey: keys.secret_server_key,
  superSecretAdminKey: keys.super_secret_admin_key,
});
console.log(`the real dashboard: ${dashboard.url} (authsim expected at http://localhost:${prefix}02)`);
const stop = () => void dashboard.stop().then(() => process.exit(0));
process.on("SIGINT", stop);
process.on("SIGTERM", stop);

/**
 * What scripts/packages.test.ts writes into the app outside the repository: the scripts it runs there under plain
 * `node`, the consumer file it type-checks with strict flags, and that file's tsconfig. Plain text, run only there.
 */

export const CHROMIUM_PATH = "/usr/bin/chromium";

export const CHECK_MJS = `
import assert from "node:assert/strict";
import { createFakeProvider } from "@authsim/fake-provider";
import { fakeProviderHandlers } from "@authsim/fake-provider/msw";
import { StackClientApp } from "@authsim/sdk";
import { manualClock } from "@authsim/sdk/runtime";
import { knownErrorCodes } from "@authsim/sdk/contract";
import { devProjectSeed as dev, internalProjectSeed as internal } from "@authsim/fixtures";
import { StackProvider } from "@authsim/react";
import { setupServer } from "msw/node";
import { StackClientApp as PublishedClientApp } from "@stackframe/js";

assert.equal(typeof StackProvider, "function");
assert.ok(knownErrorCodes.length > 10);

// In process: our SDK against createFakeProvider.
const clock = manualClock(Date.UTC(2026, 0, 1));
const provider = createFakeProvider({ clock });
const app = new StackClientApp({ baseUrl: "http://fake", projectId: dev.id, publishableClientKey: dev.keys.publishable_client_key, tokenStore: "memory", fetch: provider.fetch, clock });
const ours = await app.signUpWithCredential({ email: "a@example.com", password: "password-123", noRedirect: true });
assert.equal(ours.status, "ok", JSON.stringify(ours));

// An internal user's owned project comes with a working admin app (registered by the package's entry, not imported by
// the client app: sdk/src/client/owned-projects.ts).
const owner = new StackClientApp({ baseUrl: "http://fake", projectId: internal.id, publishableClientKey: internal.keys.publishable_client_key, tokenStore: "memory", fetch: provider.fetch, clock });
assert.equal((await owner.signUpWithCredential({ email: "owner@example.com", password: "password-123", noRedirect: true, noVerificationCallback: true })).status, "ok");
const ownerUser = await owner.getUser({ or: "throw" });
const team = await ownerUser.createTeam({ displayName: "Owners" });
const created = await ownerUser.createProject({ displayName: "Owned", teamId: team.id });
assert.equal((await created.app.getProject()).displayName, "Owned");
assert.deepEqual((await ownerUser.listOwnedProjects()).map((p) => p.id), [created.id]);

// The published kit, unchanged, with the emulator behind msw.
const handlers = fakeProviderHandlers({ baseUrl: "https://api.stack-auth.test" });
const server = setupServer(...handlers);
server.listen({ onUnhandledRequest: "error" });
try {
  const published = new PublishedClientApp({ baseUrl: "https://api.stack-auth.test", projectId: dev.id, publishableClientKey: dev.keys.publishable_client_key, tokenStore: "memory", noAutomaticPrefetch: true });
  // Outside a browser the kit cannot derive the verification link's URL: it must be given (README).
  const result = await published.signUpWithCredential({ email: "published@example.com", password: "password-123", verificationCallbackUrl: "http://localhost:3000/handler/email-verification", noRedirect: true });
  assert.equal(result.status, "ok", JSON.stringify(result));
  const users = handlers.provider.store.read.users;
  assert.ok([...users.values()].some((u) => JSON.stringify(u).includes("published@example.com")));
} finally {
  server.close();
}
console.log("plain node: ok");
`;

export const CONSUMER_TS = `
import { createFakeProvider, type FakeProvider, type SentEmailRecord } from "@authsim/fake-provider";
import { fakeProviderHandlers, type FakeProviderHandlers } from "@authsim/fake-provider/msw";
import { StackClientApp, StackServerApp, type StackAdminApp } from "@authsim/sdk";
import { manualClock, type ManualClock } from "@authsim/sdk/runtime";
import { devProjectSeed as dev, loadFixture } from "@authsim/fixtures";
import { StackProvider, useUser } from "@authsim/react";
import { urlTarget, type Target } from "@authsim/conformance";
import { createAuthsim, signIn, type SignedInUser } from "authsim/playwright";
import type { BrowserContext } from "playwright-core";

const clock: ManualClock = manualClock(Date.UTC(2026, 0, 1));
const provider: FakeProvider = createFakeProvider({ clock });
const app = new StackClientApp({ baseUrl: "http://fake", projectId: dev.id, publishableClientKey: dev.keys.publishable_client_key, tokenStore: "memory", fetch: provider.fetch, clock });
const server = new StackServerApp({ baseUrl: "http://fake", projectId: dev.id, publishableClientKey: dev.keys.publishable_client_key, secretServerKey: dev.keys.secret_server_key, tokenStore: "memory", fetch: provider.fetch });
const handlers: FakeProviderHandlers = fakeProviderHandlers({ baseUrl: "https://api.stack-auth.test" });
const target: Target = urlTarget({ baseUrl: "http://127.0.0.1:8102", hasControls: true });
export async function flow(): Promise<SentEmailRecord> {
  await app.signUpWithCredential({ email: "a@example.com", password: "password-123", noRedirect: true });
  await server.listUsers();
  await loadFixture({ projects: [] }, { baseUrl: "http://fake", fetch: provider.fetch, emulator: true });
  return await provider.outbox.waitFor({ to: "a@example.com" });
}
// Owned projects are typed with the admin app itself (the client declares the type, the admin layer merges it in).
export async function ownedAdminApps(): Promise<StackAdminApp[]> {
  const user = await app.getUser({ or: "throw" });
  return (await user.listOwnedProjects?.())?.map((project) => project.app) ?? [];
}
export const parts = [StackProvider, useUser, handlers, target] as const;
export async function signedIn(context: BrowserContext): Promise<[SignedInUser, string]> {
  const user = await signIn(context, { email: "ada@example.com", password: "password-123" });
  return [user, await createAuthsim({ url: "http://127.0.0.1:8102" }).otpCode("ada@example.com")];
}
`;

/** What a CI job runs under \`authsim exec\`: it reaches the emulator through the env lines, then exits with \`code\`. */
export const execScript = (code: number) => `
const r = await fetch(process.env.STACK_API_URL + "/api/v1/projects/current", { headers: {
  "x-stack-project-id": process.env.STACK_PROJECT_ID, "x-stack-access-type": "client",
  "x-stack-publishable-client-key": process.env.STACK_PUBLISHABLE_CLIENT_KEY } });
console.log("exec: project " + r.status + " " + (await r.json()).id + " parent " + process.ppid);
process.exit(${code});
`;

export const SIGN_UP_MJS = `
const r = await fetch(process.env.STACK_API_URL + "/api/v1/auth/password/sign-up", { method: "POST", headers: {
  "content-type": "application/json", "x-stack-project-id": process.env.STACK_PROJECT_ID, "x-stack-access-type": "client",
  "x-stack-publishable-client-key": process.env.STACK_PUBLISHABLE_CLIENT_KEY },
  body: JSON.stringify({ email: "new@example.com", password: "password-123", verification_callback_url: "http://localhost:3000/handler/email-verification" }) });
console.log("sign-up: " + r.status + " " + r.headers.get("x-stack-known-error"));
`;

// A Playwright test of an app on our React bindings (the emulator's hosted app): signed in by the helper, no sign-in page.
export const PLAYWRIGHT_MJS = `
import assert from "node:assert/strict";
import { chromium } from "playwright-core";
import { signIn } from "authsim/playwright";
const browser = await chromium.launch({ executablePath: "${CHROMIUM_PATH}", args: ["--no-sandbox", "--headless", "--disable-gpu"] });
try {
  const context = await browser.newContext();
  const user = await signIn(context, { email: "ada@example.com", displayName: "Ada Lovelace" });
  const page = await context.newPage();
  await page.goto(process.env.AUTHSIM_URL + "/handler/account-settings");
  await page.getByRole("heading", { name: "Account Settings" }).first().waitFor();
  await page.goto(process.env.AUTHSIM_URL + "/app");
  const whoami = page.getByTestId("whoami");
  await whoami.filter({ hasText: "Signed in as" }).waitFor();
  assert.equal(await whoami.textContent(), "Signed in as Ada Lovelace");
  console.log("playwright: signed in as " + user.id);
} finally {
  await browser.close();
}
`;

export const TSCONFIG = {
  compilerOptions: {
    target: "ES2022",
    module: "NodeNext",
    moduleResolution: "NodeNext",
    strict: true,
    exactOptionalPropertyTypes: true,
    noPropertyAccessFromIndexSignature: true,
    noUncheckedIndexedAccess: true,
    skipLibCheck: true,
    noEmit: true,
    types: ["node"],
    lib: ["ES2023", "DOM"],
  },
  files: ["consumer.ts"],
};

import { setupWorker } from "msw/browser";
import { devProjectSeed as dev } from "@authsim/fixtures";
import { StackClientApp } from "@authsim/sdk";
import { fakeProviderHandlers } from "@authsim/fake-provider/msw";

/**
 * A page that runs the whole emulator itself: msw's service worker hands every request to the provider's URL back to
 * this page, where the bundled emulator answers it. The SDK is configured as an app would be, with a provider URL that
 * does not resolve, so an answer can only come from the emulator in the page. The test reads the outcome from the DOM.
 */
const BASE_URL = "https://api.stack-auth.test";
const EMAIL = "ada@example.com";

const status = document.querySelector<HTMLElement>("[data-testid=status]")!;
const result = document.querySelector<HTMLElement>("[data-testid=result]")!;

async function run(): Promise<Record<string, unknown>> {
  const handlers = fakeProviderHandlers({ baseUrl: BASE_URL });
  await setupWorker(...handlers).start({
    serviceWorker: { url: "/mockServiceWorker.js" },
    onUnhandledRequest: "bypass",
    quiet: true,
  });
  const app = new StackClientApp({
    baseUrl: BASE_URL,
    projectId: dev.id,
    publishableClientKey: dev.keys.publishable_client_key,
    tokenStore: "memory",
  });
  const signUp = await app.signUpWithCredential({ email: EMAIL, password: "correct horse battery", noRedirect: true });
  if (signUp.status !== "ok") throw new Error(`sign-up failed: ${signUp.error.code}`);
  const user = await app.getUser({ or: "throw" });
  const verification = handlers.provider.outbox.latest({ to: EMAIL, kind: "email_verification" });
  return {
    email: user.primaryEmail,
    id: user.id,
    users_in_emulator: handlers.provider.store.read.users.size,
    verification_link: verification?.link ?? null,
    node_process_global: typeof (globalThis as { process?: unknown }).process !== "undefined",
  };
}

run().then(
  (outcome) => {
    result.textContent = JSON.stringify(outcome, null, 2);
    status.textContent = "signed-in";
  },
  (error: unknown) => {
    result.textContent =
      error instanceof Error ? `${error.name}: ${error.message}\n${error.stack ?? ""}` : String(error);
    status.textContent = "failed";
  },
);

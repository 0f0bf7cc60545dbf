import { devProjectSeed } from "@authsim/fixtures";
import { StackServerApp } from "@authsim/sdk";
import type { TestApp } from "./render-app.tsx";

/**
 * A server app on the test's provider, for what a backend would change behind the page's back (grants, memberships):
 * its writes are not the page app's, so the page's caches see them only when told (refreshAll) or on the next load.
 */
export function serverAppOf(t: TestApp): StackServerApp {
  return new StackServerApp({
    projectId: devProjectSeed.id,
    publishableClientKey: devProjectSeed.keys.publishable_client_key,
    secretServerKey: devProjectSeed.keys.secret_server_key,
    baseUrl: "http://authsim.test",
    fetch: (url, init) => t.provider.fetch(url, init),
  });
}

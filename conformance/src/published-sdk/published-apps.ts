import { StackAdminApp, StackClientApp, StackServerApp } from "@stackframe/js";
import { devProjectSeed as dev } from "@authsim/fixtures";
import type { ServedProvider } from "../harness/serve.ts";

// The published options types want env-derived literals; these are its documented constructor options.
type ClientOptions = ConstructorParameters<typeof StackClientApp>[0];
type ServerOptions = ConstructorParameters<typeof StackServerApp>[0];
type AdminOptions = ConstructorParameters<typeof StackAdminApp>[0];

/**
 * The published @stackframe/js apps pointed at a fake served over a port, on the dev project, with a memory token
 * store and no background traffic (prefetch, analytics). `served` is read at each call: suites set it in beforeAll.
 */
export function publishedApps(served: () => ServedProvider) {
  const common = () => ({
    baseUrl: served().baseUrl,
    projectId: dev.id,
    publishableClientKey: dev.keys.publishable_client_key,
    tokenStore: "memory",
    noAutomaticPrefetch: true,
    analytics: { enabled: false },
  });
  return {
    clientApp: () => new StackClientApp(common() as ClientOptions),
    serverApp: (secretServerKey: string = dev.keys.secret_server_key) =>
      new StackServerApp({ ...common(), secretServerKey } as ServerOptions),
    adminApp: () =>
      new StackAdminApp({
        ...common(),
        secretServerKey: dev.keys.secret_server_key,
        superSecretAdminKey: dev.keys.super_secret_admin_key,
      } as AdminOptions),
  };
}

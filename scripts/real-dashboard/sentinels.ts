/**
 * The real dashboard's build leaves its public settings as sentinels (`STACK_ENV_VAR_SENTINEL_<NAME>`, plus
 * `STACK_ENV_VAR_SENTINEL_USE_INLINE_ENV_VARS`, which switches them on); its Docker entrypoint writes the values into
 * the built files at start. This does the same for a run of the build against authsim, so one build serves any port.
 */
const SENTINEL = /STACK_ENV_VAR_SENTINEL_([A-Z0-9_]+)/g;

/** The text with every sentinel whose name `values` holds replaced by its value; others are left as they are. */
export function replaceSentinels(text: string, values: Readonly<Record<string, string>>): string {
  return text.replace(SENTINEL, (whole, name: string) => (Object.hasOwn(values, name) ? values[name]! : whole));
}

export interface DashboardSettings {
  /** authsim's URL as the browser and the dashboard's server reach it, e.g. http://localhost:31602 */
  apiUrl: string;
  /** The dashboard's own port, e.g. 31601 */
  port: number;
  /** The two leading digits the real development setup numbers its ports with (81 → 8101, 8102, …). */
  portPrefix: string;
  /** The `internal` project's publishable key authsim seeds (fixtures/projects/internal-project.json). */
  publishableClientKey: string;
}

/** The values the real entrypoint sets, for a dashboard on localhost:<port> in front of authsim. */
export function sentinelValues(s: DashboardSettings): Record<string, string> {
  const dashboardUrl = `http://localhost:${s.port}`;
  return {
    USE_INLINE_ENV_VARS: "true",
    NEXT_PUBLIC_STACK_API_URL: s.apiUrl,
    NEXT_PUBLIC_BROWSER_STACK_API_URL: s.apiUrl,
    NEXT_PUBLIC_SERVER_STACK_API_URL: s.apiUrl,
    NEXT_PUBLIC_STACK_DASHBOARD_URL: dashboardUrl,
    NEXT_PUBLIC_BROWSER_STACK_DASHBOARD_URL: dashboardUrl,
    NEXT_PUBLIC_SERVER_STACK_DASHBOARD_URL: dashboardUrl,
    NEXT_PUBLIC_STACK_PROJECT_ID: "internal",
    NEXT_PUBLIC_STACK_PUBLISHABLE_CLIENT_KEY: s.publishableClientKey,
    NEXT_PUBLIC_STACK_PORT_PREFIX: s.portPrefix,
    // authsim serves the webhooks' Svix API under its own origin (docs/emulator.md).
    NEXT_PUBLIC_STACK_SVIX_SERVER_URL: `${s.apiUrl}/__svix`,
    NEXT_PUBLIC_STACK_IS_LOCAL_EMULATOR: "false",
    // Once a project has a payments account, the payments pages start Stripe's embedded components with this key (an
    // unset key throws in the page). Their script is on Stripe's servers, which this offline run never reaches, so
    // any well-formed test key serves; the payments themselves are authsim's.
    NEXT_PUBLIC_STACK_STRIPE_PUBLISHABLE_KEY: "pk_test_authsim",
  };
}

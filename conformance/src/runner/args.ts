/** The `authsim-conformance` command line. */
export interface RunnerOptions {
  baseUrl: string;
  projectId?: string;
  publishableClientKey?: string;
  secretServerKey?: string;
  superSecretAdminKey?: string;
  /** False for a provider that is not an authsim fake (no /__emulator controls): the real service. */
  isFake: boolean;
  jsonReport: string;
  markdownReport: string;
  /** Areas to run (exact names, as the report's rows); empty = every area. */
  areas: string[];
}

export const usage = `Usage: authsim-conformance --base-url URL [options]

Runs the authsim conformance suites against a provider and reports, per area, what passed, failed or was skipped (each
skip with its reason).

  --base-url URL                 the provider's base URL (without /api/v1), e.g. http://127.0.0.1:8102
  --project-id ID                project to test (default: the authsim dev project)
  --keys PCK,SSK,SAK             publishable client, secret server and super secret admin keys, comma-separated
  --publishable-client-key K     (or each key on its own)
  --secret-server-key K
  --super-secret-admin-key K
  --not-fake                     the target is not an authsim fake (e.g. the real service): cases that need the
                                 emulator's control endpoints are skipped with that reason
  --report FILE                  JSON report (default conformance-report.json)
  --markdown FILE                Markdown fidelity table (default conformance-report.md)
  --area NAME                    run only this area, by its exact name as in the summary (e.g. "password auth");
                                 repeatable; an unknown name lists the areas and exits with status 2`;

export function parseRunnerArgs(argv: readonly string[]): RunnerOptions {
  const o: Partial<RunnerOptions> & { isFake: boolean; jsonReport: string; markdownReport: string; areas: string[] } = {
    isFake: true,
    jsonReport: "conformance-report.json",
    markdownReport: "conformance-report.md",
    areas: [],
  };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i]!;
    const value = () => {
      const v = argv[++i];
      if (v === undefined || v.startsWith("--")) throw new Error(`${flag} needs a value.\n\n${usage}`);
      return v;
    };
    switch (flag) {
      case "--base-url":
        o.baseUrl = value();
        break;
      case "--project-id":
        o.projectId = value();
        break;
      case "--keys": {
        const [pck, ssk, sak] = value().split(",");
        if (pck) o.publishableClientKey = pck;
        if (ssk) o.secretServerKey = ssk;
        if (sak) o.superSecretAdminKey = sak;
        break;
      }
      case "--publishable-client-key":
        o.publishableClientKey = value();
        break;
      case "--secret-server-key":
        o.secretServerKey = value();
        break;
      case "--super-secret-admin-key":
        o.superSecretAdminKey = value();
        break;
      case "--not-fake":
        o.isFake = false;
        break;
      case "--report":
        o.jsonReport = value();
        break;
      case "--markdown":
        o.markdownReport = value();
        break;
      case "--area":
        o.areas.push(value());
        break;
      case "--help":
      case "-h":
        throw new Error(usage);
      default:
        throw new Error(`Unknown option ${flag}.\n\n${usage}`);
    }
  }
  if (!o.baseUrl) throw new Error(`--base-url is required.\n\n${usage}`);
  try {
    new URL(o.baseUrl);
  } catch {
    throw new Error(`--base-url is not a URL: ${o.baseUrl}`);
  }
  return o as RunnerOptions;
}

/** The environment the env-target suite reads (conformance/src/targets.ts `targetFromEnv`). */
export function targetEnv(o: RunnerOptions): Record<string, string> {
  const env: Record<string, string> = { AUTHSIM_TARGET_URL: o.baseUrl, AUTHSIM_TARGET_IS_FAKE: String(o.isFake) };
  if (o.projectId) env.AUTHSIM_PROJECT_ID = o.projectId;
  if (o.publishableClientKey) env.AUTHSIM_PUBLISHABLE_CLIENT_KEY = o.publishableClientKey;
  if (o.secretServerKey) env.AUTHSIM_SECRET_SERVER_KEY = o.secretServerKey;
  if (o.superSecretAdminKey) env.AUTHSIM_SUPER_SECRET_ADMIN_KEY = o.superSecretAdminKey;
  return env;
}

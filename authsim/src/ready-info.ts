import { envLines } from "./env-lines.ts";

/** The project a started emulator hands to tools: the dev project's id and fixed keys. */
export interface ReadyProject {
  id: string;
  publishable: string;
  secret: string;
  admin: string;
}

/** What `--ready-json` prints on one line, and what `authsim exec` puts into its command's environment. */
export interface ReadyInfo {
  url: string;
  apiUrl: string;
  port: number;
  ports: {
    api: number;
    mockOAuth?: number;
    svix?: number;
    purchase?: number;
    mailbox?: number;
    storage?: number;
    smtp?: number;
  };
  projectId: string;
  publishableClientKey: string;
  secretServerKey: string;
  superSecretAdminKey: string;
  env: Record<string, string>;
}

/**
 * The env lines as variables, plus AUTHSIM_URL: the emulator's own address, for a test that calls its /__emulator
 * controls (the STACK_* names are the app's, which a test may point elsewhere).
 */
export function readyEnv(url: string, project: ReadyProject): Record<string, string> {
  const entries = envLines(url, project).map(
    (line) => [line.slice(0, line.indexOf("=")), line.slice(line.indexOf("=") + 1)] as const,
  );
  return { ...Object.fromEntries(entries), AUTHSIM_URL: url };
}

export function readyInfo(url: string, ports: ReadyInfo["ports"], project: ReadyProject): ReadyInfo {
  return {
    url,
    apiUrl: `${url}/api/v1`,
    port: ports.api,
    ports,
    projectId: project.id,
    publishableClientKey: project.publishable,
    secretServerKey: project.secret,
    superSecretAdminKey: project.admin,
    env: readyEnv(url, project),
  };
}

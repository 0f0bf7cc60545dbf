import { cookieNames } from "@authsim/sdk/contract";

/**
 * Where the kits read a browser's session, as cookies, and how to read one back. Two families:
 * - the published kits' (2.8.108: `@stackframe/js`, `/react`, `/stack`, read in the browser and, for Next.js, on the
 *   server): `hexclave-refresh-<project>--default` holding `{"refresh_token","updated_at_millis"}` and
 *   `hexclave-access` holding `["<refresh>","<access>"]` (an access token counts only beside its refresh token);
 * - the legacy names, which those kits still fall back to and which our SDK and React bindings' cookie store use
 *   (`cookieNames` of the contract): `stack-refresh-<project>` and `stack-access`, each holding the bare token.
 * Values are URI-encoded, as the kits write them (they decode what they read).
 */
export interface SessionTokens {
  accessToken: string;
  refreshToken: string;
}

export interface SessionCookie {
  name: string;
  value: string;
}

const publishedRefreshName = (projectId: string) => `hexclave-refresh-${projectId}--default`;
const PUBLISHED_ACCESS_NAME = "hexclave-access";

/** The cookies of both families for one session; `updatedAtMillis` orders it among refresh cookies the kit finds. */
export function sessionCookies(projectId: string, tokens: SessionTokens, updatedAtMillis: number): SessionCookie[] {
  const cookies: [string, string][] = [
    [
      publishedRefreshName(projectId),
      JSON.stringify({ refresh_token: tokens.refreshToken, updated_at_millis: updatedAtMillis }),
    ],
    [PUBLISHED_ACCESS_NAME, JSON.stringify([tokens.refreshToken, tokens.accessToken])],
    [cookieNames.refreshToken(projectId), tokens.refreshToken],
    [cookieNames.accessToken, tokens.accessToken],
  ];
  return cookies.map(([name, value]) => ({ name, value: encodeURIComponent(value) }));
}

const decoded = (value: string) => {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
};

/** The refresh token a page's cookies hold for the project (either family, `__Host-` too), or null. */
export function refreshTokenOf(projectId: string, cookies: readonly SessionCookie[]): string | null {
  const byName = new Map(cookies.map((c) => [c.name, decoded(c.value)]));
  for (const name of [publishedRefreshName(projectId), `__Host-${publishedRefreshName(projectId)}`]) {
    const value = byName.get(name);
    if (value === undefined) continue;
    try {
      const parsed = JSON.parse(value) as { refresh_token?: unknown };
      if (typeof parsed.refresh_token === "string") return parsed.refresh_token;
    } catch {
      // Not the structured form: look at the legacy cookie.
    }
  }
  return byName.get(cookieNames.refreshToken(projectId)) || null;
}

import { afterEach, beforeEach, expect } from "vitest";
import type { ProjectSeed } from "@authsim/fixtures";
import { PROJECT_TABLES } from "../domain/ops/analytics/analytics-catalog.ts";
import { admin, api, DEV, expectJson, newProvider, server, signUp, type TestProvider } from "./api.ts";

/** The ClickHouse copy of the synced tables, as its tests read and fill it (analytics-synced-*.test.ts). */

export type Rows = Record<string, unknown>[];

/** POST /internal/analytics/query as the project's admin; the result's rows. */
export async function analyticsQuery(
  provider: TestProvider,
  text: string,
  params: Record<string, unknown> = {},
  project: ProjectSeed = DEV,
): Promise<Rows> {
  const response = await api(provider, "/internal/analytics/query", {
    headers: admin({}, project),
    json: { query: text, params },
  });
  return (await expectJson<{ result: Rows }>(response)).result;
}

/** A server call and its JSON answer, whose status must be `status`. */
export const serverCall = async (provider: TestProvider, path: string, json: unknown, method = "POST", status = 200) =>
  expectJson<Record<string, unknown>>(await api(provider, path, { method, headers: server(), json }), status);

/**
 * A row in every table of the project but the outbox (its own test sends an email): a signed-up user (a contact
 * channel, a refresh token, an event), a team they joined, a project permission, a preference, an invitation, a link.
 */
export async function fillEveryTable(provider: TestProvider, project: ProjectSeed = DEV): Promise<{ userId: string }> {
  const user = await signUp(provider, { project });
  const as = async (path: string, json: unknown, method = "POST", status = 201) =>
    expectJson(await api(provider, path, { method, headers: admin({}, project), json }), status);
  const team = (await as("/teams", { display_name: "Every Table" })) as { id: string };
  await as(`/team-memberships/${team.id}/${user.user_id}`, {});
  await as(`/team-permissions/${team.id}/${user.user_id}/$read_members`, {});
  await as("/project-permission-definitions", { id: "copy_perm" });
  await as(`/project-permissions/${user.user_id}/copy_perm`, {});
  await as(
    `/emails/notification-preference/${user.user_id}/4f6f8873-3d04-46bd-8bef-18338b1a1b4c`,
    { enabled: false },
    "PATCH",
    200,
  );
  await as(
    "/team-invitations/send-code",
    { team_id: team.id, email: "every@example.com", callback_url: "http://localhost:8102/cb" },
    "POST",
    200,
  );
  await as("/oauth-providers", {
    user_id: user.user_id,
    provider_config_id: "github",
    account_id: `every-${project.id}`,
    email: null,
    allow_sign_in: false,
    allow_connected_accounts: true,
  });
  return { userId: user.user_id };
}

/** The tables fillEveryTable gives a row. */
export const FILLED = Object.keys(PROJECT_TABLES).filter((t) => t !== "email_outboxes");

/**
 * A fresh provider for each case of the calling file (its timed work stopped and nothing unexpected recorded after
 * it), and the helpers above bound to it.
 */
export function useAnalyticsCopy() {
  let current: TestProvider | undefined;
  beforeEach(() => {
    current = newProvider();
  });
  afterEach(() => {
    current!.work.stop();
    expect(current!.unexpected).toEqual([]);
  });
  const provider = () => current!;
  const call = (path: string, json: unknown, method?: string, status?: number) =>
    serverCall(provider(), path, json, method, status);
  return {
    provider,
    query: (text: string, params?: Record<string, unknown>, project?: ProjectSeed) =>
      analyticsQuery(provider(), text, params, project),
    call,
    createUser: (body: Record<string, unknown>) => call("/users", body, "POST", 201),
    fillEveryTable: (project?: ProjectSeed) => fillEveryTable(provider(), project),
  };
}

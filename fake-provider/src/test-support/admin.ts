import { afterEach, beforeEach, expect } from "vitest";
import { adminProject, type AdminProjectJson } from "@authsim/sdk/contract";
import {
  INTERNAL,
  admin,
  api,
  client,
  expectJson,
  newProvider,
  signUp,
  type SignedUp,
  type TestProvider,
} from "./api.ts";

/** Helpers for the admin-surface tests (issue 6): project updates, owners in the `internal` project, an SMTP server. */

type Json = Record<string, unknown>;

export async function patchProject(provider: TestProvider, body: Json, headers = admin()): Promise<Response> {
  return api(provider, "/internal/projects/current", { method: "PATCH", headers, json: body });
}

export async function updatedProject(provider: TestProvider, body: Json): Promise<AdminProjectJson> {
  return adminProject.parse(await expectJson(await patchProject(provider, body)));
}

/** PATCH /internal/config/override/{level} (the environment unless named) with an override, sent as its JSON string. */
export function patchConfigOverride(
  provider: TestProvider,
  override: unknown,
  level = "environment",
): Promise<Response> {
  return api(provider, `/internal/config/override/${level}`, {
    method: "PATCH",
    headers: admin(),
    json: { config_override_string: JSON.stringify(override) },
  });
}

/** GET /internal/config, parsed: the rendered config by section. */
export async function renderedConfig(provider: TestProvider): Promise<Record<string, Record<string, unknown>>> {
  const { config_string } = await expectJson<{ config_string: string }>(
    await api(provider, "/internal/config", { headers: admin() }),
  );
  return JSON.parse(config_string) as Record<string, Record<string, unknown>>;
}

/**
 * A fresh provider for each case of the calling file (nothing unexpected recorded after it), with its config's
 * override PATCH and rendering bound to it.
 */
export function useConfigProvider() {
  let current: TestProvider | undefined;
  beforeEach(() => {
    current = newProvider();
  });
  afterEach(() => expect(current!.unexpected).toEqual([]));
  const provider = () => current!;
  return {
    provider,
    patch: (override: unknown, level?: string) => patchConfigOverride(provider(), override, level),
    getConfig: () => renderedConfig(provider()),
  };
}

/** A dashboard user: signed up on `internal`, with a team of their own there (they created it, so they are a member). */
export interface Owner {
  user: SignedUp;
  teamId: string;
  headers: ReturnType<typeof client>;
}

export async function internalOwner(provider: TestProvider): Promise<Owner> {
  const user = await signUp(provider, { project: INTERNAL });
  const headers = client({ accessToken: user.access_token }, INTERNAL);
  const team = await expectJson<{ id: string }>(
    await api(provider, "/teams", { headers, json: { display_name: "Owners", creator_user_id: "me" } }),
    201,
  );
  return { user, teamId: team.id, headers };
}

/** Admin headers for a project, authenticated by an owner's admin access token (protocol.md §2.3 step 7). */
export const ownerAdmin = (owner: Owner, projectId: string) => ({
  accessType: "admin" as const,
  projectId,
  adminAccessToken: owner.user.access_token,
});

export const SMTP = {
  type: "standard",
  host: "smtp.example.com",
  port: 587,
  username: "mailer",
  password: "secret",
  sender_name: "Dev",
  sender_email: "noreply@example.com",
};

/** The dev project on its own SMTP server (custom emails need one: REQUIRES_CUSTOM_EMAIL_SERVER). */
export async function useSmtp(provider: TestProvider): Promise<void> {
  await updatedProject(provider, { config: { email_config: SMTP } });
}

import {
  clientTeam,
  serverTeam,
  signInResponse,
  type ClientTeamJson,
  type ServerTeamJson,
} from "@authsim/sdk/contract";
import type { ProjectConfigRecord } from "../domain/store/records.ts";
import {
  DEV,
  PASSWORD,
  api,
  client,
  expectJson,
  freshEmail,
  server,
  signUp,
  type SignedUp,
  type TestProvider,
} from "./api.ts";

/** Helpers for the teams, permissions and invitations tests (protocol.md §5.3–5.5). */

type Json = Record<string, unknown>;

/** Client headers carrying a user's access token. */
export const as = (user: { access_token: string }) => client({ accessToken: user.access_token });

export async function clientCreateTeam(
  provider: TestProvider,
  user: SignedUp,
  body: Json = { display_name: "Team" },
): Promise<ClientTeamJson> {
  return clientTeam.parse(await expectJson(await api(provider, "/teams", { headers: as(user), json: body }), 201));
}

export async function serverCreateTeam(
  provider: TestProvider,
  body: Json = { display_name: "Team" },
): Promise<ServerTeamJson> {
  return serverTeam.parse(await expectJson(await api(provider, "/teams", { headers: server(), json: body }), 201));
}

export async function addMember(provider: TestProvider, teamId: string, userId: string): Promise<void> {
  await expectJson(
    await api(provider, `/team-memberships/${teamId}/${userId}`, { method: "POST", headers: server(), json: {} }),
    201,
  );
}

/** A user whose email is verified (server-created), signed in: invitations need a proven address. */
export async function verifiedUser(provider: TestProvider, email = freshEmail("verified")): Promise<SignedUp> {
  await expectJson(
    await api(provider, "/users", {
      headers: server(),
      json: {
        primary_email: email,
        primary_email_verified: true,
        primary_email_auth_enabled: true,
        password: PASSWORD,
      },
    }),
    201,
  );
  const signIn = await api(provider, "/auth/password/sign-in", {
    headers: client(),
    json: { email, password: PASSWORD },
  });
  return { ...signInResponse.parse(await expectJson(signIn)), email, password: PASSWORD };
}

/** A team created by a fresh user (who holds the creator defaults) plus a plain member added by the server. */
export async function teamWithMember(provider: TestProvider) {
  const owner = await signUp(provider);
  const member = await signUp(provider);
  const team = await clientCreateTeam(provider, owner);
  // The member joins after the owner, so lists in joining order (createdAt, as upstream orders them) are stable.
  provider.clock.advance(1);
  await addMember(provider, team.id, member.user_id);
  return { owner, member, team };
}

/** Changes the dev project's config directly in the store (no public endpoint edits these fields yet). */
export async function patchDevConfig(provider: TestProvider, patch: Partial<ProjectConfigRecord>): Promise<void> {
  await provider.store.transact((tables) => {
    const project = tables.projects.get(DEV.id)!;
    tables.projects.set(DEV.id, { ...project, config: { ...project.config, ...patch } });
  });
}

/** The ids of a list answer's items, e.g. of GET /team-permissions. */
export async function itemIds(response: Response): Promise<string[]> {
  const body = await expectJson<{ items: { id: string }[] }>(response);
  return body.items.map((i) => i.id);
}

/** Signs an existing user in again (e.g. after moving the clock past the access tokens' lifetime). */
export async function signInAgain(provider: TestProvider, user: SignedUp): Promise<SignedUp> {
  const response = await api(provider, "/auth/password/sign-in", {
    headers: client(),
    json: { email: user.email, password: user.password },
  });
  return { ...signInResponse.parse(await expectJson(response)), email: user.email, password: user.password };
}

import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { signInResponse } from "@authsim/sdk/contract";
import {
  INTERNAL,
  PASSWORD,
  api,
  client,
  expectJson,
  expectKnownError,
  freshEmail,
  newProvider,
  server,
  signUp,
  type TestProvider,
} from "../../../test-support/api.ts";
import { SEATS_ITEM } from "./internal-plans.ts";

/** The internal project's plans: every new team starts on the free plan, and joining a team takes one of its seats. */

let provider: TestProvider;
beforeEach(() => {
  provider = newProvider();
});
afterEach(() => expect(provider.unexpected).toEqual([]));

const seats = async (teamId: string) =>
  (
    await expectJson<{ quantity: number }>(
      await api(provider, `/payments/items/team/${teamId}/${SEATS_ITEM}`, { headers: server({}, INTERNAL) }),
    )
  ).quantity;
const addSeats = (teamId: string, delta: number) =>
  api(provider, `/payments/items/team/${teamId}/${SEATS_ITEM}/update-quantity?allow_negative=false`, {
    headers: server({}, INTERNAL),
    json: { delta },
  });

/** A verified user of the internal project, signed in. */
async function verifiedInternalUser(email = freshEmail("admin")) {
  await expectJson(
    await api(provider, "/users", {
      headers: server({}, INTERNAL),
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
    headers: client({}, INTERNAL),
    json: { email, password: PASSWORD },
  });
  return { ...signInResponse.parse(await expectJson(signIn)), email };
}

async function inviteAndAccept(teamId: string) {
  const invitee = await verifiedInternalUser();
  await expectJson(
    await api(provider, "/team-invitations/send-code", {
      headers: server({}, INTERNAL),
      json: { email: invitee.email, team_id: teamId, callback_url: "http://localhost:3000/cb" },
    }),
  );
  const code = provider.outbox.latest({ to: invitee.email, kind: "team_invitation" })!.code!;
  return api(provider, "/team-invitations/accept", {
    headers: client({ accessToken: invitee.access_token }, INTERNAL),
    json: { code },
  });
}

describe("the internal project's plans", () => {
  it("starts a team made by the server on the free plan: one seat, and the plan listed as its product", async () => {
    const team = await expectJson<{ id: string }>(
      await api(provider, "/teams", { headers: server({}, INTERNAL), json: { display_name: "Owners" } }),
      201,
    );
    expect(await seats(team.id)).toBe(1);
    const products = await expectJson<{ items: { id: string; type: string }[] }>(
      await api(provider, `/payments/products/team/${team.id}`, { headers: server({}, INTERNAL) }),
    );
    expect(products.items.map((p) => [p.id, p.type])).toEqual([["free", "subscription"]]);
  });

  it("starts the personal team of a new internal user on the free plan too", async () => {
    const user = await signUp(provider, { project: INTERNAL });
    const me = await expectJson<{ selected_team_id: string }>(
      await api(provider, "/users/me", { headers: client({ accessToken: user.access_token }, INTERNAL) }),
    );
    expect(await seats(me.selected_team_id)).toBe(1);
  });

  it("gives other projects' teams no plan", async () => {
    const team = await expectJson<{ id: string }>(
      await api(provider, "/teams", { headers: server(), json: { display_name: "Plain" } }),
      201,
    );
    const products = await expectJson<{ items: unknown[] }>(
      await api(provider, `/payments/products/team/${team.id}`, { headers: server() }),
    );
    expect(products.items).toEqual([]);
  });

  it("refuses a member beyond the team's seats (charging -1) and takes them once seats are added", async () => {
    const owner = await verifiedInternalUser();
    const team = await expectJson<{ id: string }>(
      await api(provider, "/teams", {
        headers: server({}, INTERNAL),
        json: { display_name: "Owners", creator_user_id: owner.user_id },
      }),
      201,
    );
    const refused = await expectKnownError(await inviteAndAccept(team.id), "ITEM_QUANTITY_INSUFFICIENT_AMOUNT", 400);
    expect(refused.details).toEqual({ item_id: SEATS_ITEM, customer_id: team.id, quantity: -1 });

    await expectJson(await addSeats(team.id, 1));
    expect(await expectJson(await inviteAndAccept(team.id))).toEqual({});
    await expectKnownError(await inviteAndAccept(team.id), "ITEM_QUANTITY_INSUFFICIENT_AMOUNT", 400);
  });

  it("admits an invitee by the code alone, whatever address they signed up with, once the team has a seat", async () => {
    const owner = await verifiedInternalUser();
    const team = await expectJson<{ id: string }>(
      await api(provider, "/teams", {
        headers: server({}, INTERNAL),
        json: { display_name: "Owners", creator_user_id: owner.user_id },
      }),
      201,
    );
    const invitee = await verifiedInternalUser();
    await expectJson(
      await api(provider, "/team-invitations/send-code", {
        headers: server({}, INTERNAL),
        json: { email: invitee.email, team_id: team.id, callback_url: "http://localhost:3000/cb" },
      }),
    );
    const code = provider.outbox.latest({ to: invitee.email, kind: "team_invitation" })!.code!;
    // A user with no email at all, signed in as the server signs a user in (upstream's e2e fastSignUp).
    const stranger = await expectJson<{ id: string }>(
      await api(provider, "/users", { headers: server({}, INTERNAL), json: {} }),
      201,
    );
    const session = await expectJson<{ access_token: string }>(
      await api(provider, "/auth/sessions", { headers: server({}, INTERNAL), json: { user_id: stranger.id } }),
    );
    const accept = (accessToken: string) =>
      api(provider, "/team-invitations/accept", { headers: client({ accessToken }, INTERNAL), json: { code } });
    // Upstream's e2e "allows team admins to be added when item quantity is increased": the seats decide, not the address.
    await expectKnownError(await accept(session.access_token), "ITEM_QUANTITY_INSUFFICIENT_AMOUNT", 400);
    await expectJson(await addSeats(team.id, 1));
    expect(await expectJson(await accept(session.access_token))).toEqual({});
    await expectKnownError(await accept(invitee.access_token), "VERIFICATION_CODE_ALREADY_USED", 409);
  });
});

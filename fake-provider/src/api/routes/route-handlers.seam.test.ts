import { describe, expect, it } from "vitest";
import { asClient, asServer, opSeam, type Caller, type OpSeam } from "../../test-support/op-seam.ts";
import { openSession } from "../../domain/ops/sign-in/sessions.ts";
import { UnsignedAccessToken } from "../../domain/auth/tokens.ts";
import { createTeam } from "../../domain/ops/teams/teams.ts";
import { clientTeamView, serverTeamView } from "../../domain/views/teams.ts";
import { clientUserView, serverUserView } from "../../domain/views/users.ts";
import { anyParams, bodyForCaller, noQuery, operationsById, type OperationId } from "@authsim/sdk/contract";
import type { RouteTable } from "./define.ts";
import { sessionListRoutes } from "./session-list.ts";
import { sessionRoutes } from "./sessions.ts";
import { teamRoutes } from "./teams.ts";
import { userRoutes } from "./users.ts";

/**
 * Routes are thin: parse, call one op, serialise. These run a route's handler as api/routes/mount.ts does (its parts parsed
 * by the operation's contract schemas, the caller's auth, one transaction through opSeam) and check only that: the parsed input
 * and the typed caller reach the op, and its result comes back in the view and status the wire wants. The ops' rules
 * are tested at their seam (domain/ops/*.seam.test.ts); the pipeline itself (headers, errors, CORS) in mount.test.ts.
 */

interface Parts {
  params?: Record<string, string>;
  query?: Record<string, string>;
  body?: unknown;
}

/** A route of an area's table, by its operation id. */
type Route = readonly [table: RouteTable, id: OperationId];

/**
 * The route's handler with its parts parsed by the operation's contract entry, as mount.ts parses them (the body's
 * schema chosen by the caller's type where the contract has one per caller).
 */
function callRoute(seam: OpSeam, caller: Caller, [table, id]: Route, parts: Parts = {}) {
  const request = operationsById.get(id)!.request;
  // Typed per operation in the table; here one helper runs any of them with parts it has just parsed for that id.
  const spec = table[id] as { handler(input: unknown): ReturnType<NonNullable<RouteTable["getMe"]>["handler"]> };
  return seam.run(caller, (ctx) =>
    spec.handler({
      params: (request.params ?? anyParams).parse(parts.params ?? {}),
      query: (request.query ?? noQuery).parse(parts.query ?? {}),
      body: bodyForCaller(request, ctx.auth?.type ?? null).parse(parts.body),
      auth: ctx.auth,
      ctx,
      request: new Request("http://localhost:8102/api/v1"),
    }),
  );
}

/** The route's answer, which must be a success. */
async function answer(seam: OpSeam, caller: Caller, route: Route, parts?: Parts) {
  const out = await callRoute(seam, caller, route, parts);
  if (!out.ok) throw new Error(`the route refused: ${out.error.message}`);
  return out.value;
}

describe("sessions", () => {
  it("password sign-in passes the parsed body to the op and answers its tokens as JSON", async () => {
    const seam = opSeam();
    const user = await seam.addUser({ primary_email: "ada@example.com", password: "correct horse battery" });
    const result = await answer(seam, asClient(), [sessionRoutes, "passwordSignIn"] as const, {
      body: { email: "ada@example.com", password: "correct horse battery" },
    });
    const session = [...seam.tables.sessions.values()].find((s) => s.userId === user.id)!;
    // Unsigned: the mount signs it once the transaction has committed (mount.test.ts checks the signed answer).
    expect(result).toEqual({
      json: { access_token: expect.any(UnsignedAccessToken), refresh_token: session.refreshToken, user_id: user.id },
    });
  });

  it("a server's session takes the parsed lifetime and impersonation flag, and answers only the two tokens", async () => {
    const seam = opSeam();
    const user = await seam.addUser();
    const result = await answer(seam, asServer(), [sessionRoutes, "createSession"] as const, {
      body: { user_id: user.id, expires_in_millis: 60_000, is_impersonation: true },
    });
    const session = [...seam.tables.sessions.values()].find((s) => s.userId === user.id)!;
    expect(session).toMatchObject({ isImpersonation: true, expiresAtMillis: seam.clock.now() + 60_000 });
    expect(result).toEqual({
      json: { refresh_token: session.refreshToken, access_token: expect.any(UnsignedAccessToken) },
    });
  });

  it("ending a session by id passes the path's id and the caller's own session to the op", async () => {
    const seam = opSeam();
    const caller = await seam.signIn(await seam.addUser());
    const other = await seam.ok((ctx) => openSession(ctx, ctx.tables.users.get(caller.user!.id)!));
    const own = await callRoute(seam, caller, [sessionListRoutes, "deleteSession"] as const, {
      params: { session_id: caller.sessionId! },
    });
    expect(!own.ok && "code" in own.error && own.error.code).toBe("CANNOT_DELETE_CURRENT_SESSION");
    expect(
      await answer(seam, caller, [sessionListRoutes, "deleteSession"] as const, {
        params: { session_id: other.session.id },
      }),
    ).toEqual({ json: { success: true } });
    expect(seam.tables.sessions.has(other.session.id)).toBe(false);
  });
});

describe("users", () => {
  it("the caller's type picks the body schema and the view: a client may not send server fields and sees the client view", async () => {
    const seam = opSeam();
    const user = await seam.addUser({ primary_email: "me@example.com" });
    const client = { type: "client" as const, user };
    // The client's schema refuses a server field (mount.ts turns this into SCHEMA_ERROR).
    await expect(
      callRoute(seam, client, [userRoutes, "updateMe"] as const, { body: { server_metadata: {} } }),
    ).rejects.toThrow(/server_metadata/);
    const asTheClient = await answer(seam, client, [userRoutes, "updateMe"] as const, {
      body: { display_name: "Ada" },
    });
    expect(asTheClient).toEqual({ json: clientUserView(seam.tables, seam.tables.users.get(user.id)!) });
    const asAServer = await answer(seam, { type: "server", user }, [userRoutes, "updateMe"] as const, {
      body: { server_metadata: { tier: 1 } },
    });
    expect(asAServer).toEqual({ json: serverUserView(seam.tables, seam.tables.users.get(user.id)!) });
    expect(seam.tables.users.get(user.id)).toMatchObject({ displayName: "Ada", serverMetadata: { tier: 1 } });
  });

  it("creating a user answers 201 with the server view of what the op made", async () => {
    const seam = opSeam();
    const result = await answer(seam, asServer(), [userRoutes, "createUser"] as const, {
      body: { primary_email: "new@example.com", display_name: "New" },
    });
    const made = [...seam.tables.users.values()].find((u) => u.primaryEmail === "new@example.com")!;
    expect(result).toEqual({ status: 201, body: serverUserView(seam.tables, made) });
  });
});

describe("teams", () => {
  it("creating a team answers 201 with the client view to a client and the server view to a server", async () => {
    const seam = opSeam();
    const user = await seam.addUser();
    const byClient = await answer(seam, asClient(user), [teamRoutes, "createTeam"] as const, {
      body: { display_name: "Mine" },
    });
    const byServer = await answer(seam, asServer(), [teamRoutes, "createTeam"] as const, {
      body: { display_name: "Ops", server_metadata: { s: 1 } },
    });
    const team = (name: string) => [...seam.tables.teams.values()].find((t) => t.displayName === name)!;
    expect(byClient).toEqual({ status: 201, body: clientTeamView(team("Mine")) });
    expect(byServer).toEqual({ status: 201, body: serverTeamView(team("Ops")) });
  });

  it("a list is one unpaginated page without a limit, and carries the op's next cursor with one", async () => {
    const seam = opSeam();
    const teams = [];
    for (const name of ["A", "B"]) {
      teams.push(await seam.ok(asServer(), (ctx) => createTeam(ctx, { display_name: name })));
      seam.clock.advance(1);
    }
    expect(await answer(seam, asServer(), [teamRoutes, "listTeams"] as const)).toEqual({
      json: { items: teams.map(serverTeamView), is_paginated: false },
    });
    expect(await answer(seam, asServer(), [teamRoutes, "listTeams"] as const, { query: { limit: "1" } })).toEqual({
      json: { items: [serverTeamView(teams[0]!)], is_paginated: true, pagination: { next_cursor: teams[1]!.id } },
    });
  });
});

import { anonymousSignUp, passwordSignIn, passwordSignUp } from "../../domain/ops/sign-in/password-auth.ts";
import { endCurrentSession, openSessionFor, refreshCurrentSession } from "../../domain/ops/sign-in/sessions.ts";
import { stackHeader } from "../auth/headers.ts";
import { ok, success, type RouteTable } from "./define.ts";
import { tokenEndpoint } from "./token-endpoint.ts";

/** Password and anonymous sign-in, sessions and the token endpoint (protocol.md §4.4, §4.5, §6.2). */
export const sessionRoutes: RouteTable = {
  passwordSignUp: {
    handler: async ({ auth, ctx, body }) => ok(await passwordSignUp({ ...ctx, auth }, body)),
  },
  passwordSignIn: {
    handler: async ({ auth, ctx, body }) => ok(await passwordSignIn({ ...ctx, auth }, body)),
  },
  anonymousSignUp: {
    handler: async ({ auth, ctx }) => ok(await anonymousSignUp({ ...ctx, auth })),
  },
  oauthToken: tokenEndpoint,
  createSession: {
    handler: async ({ auth, ctx, body }) => ok(await openSessionFor({ ...ctx, auth }, body)),
  },
  deleteCurrentSession: {
    handler: ({ auth, ctx }) => {
      endCurrentSession({ ...ctx, auth });
      return success();
    },
  },
  refreshCurrentSession: {
    handler: async ({ auth, ctx, request }) =>
      ok(await refreshCurrentSession({ ...ctx, auth }, stackHeader(request.headers, "refreshToken"))),
  },
};

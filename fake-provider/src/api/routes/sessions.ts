import { z } from "zod";
import { createSessionBody, passwordSignInBody, passwordSignUpBody } from "@authsim/sdk/contract";
import { knownError } from "../../domain/errors/known-error.ts";
import { anonymousSignUp, passwordSignIn, passwordSignUp } from "../../domain/ops/password-auth.ts";
import { endSession, openSession, refreshAccessToken } from "../../domain/ops/sessions.ts";
import { stackHeader } from "../auth/headers.ts";
import { noBody, ok, route, success, type AnyRouteSpec } from "./define.ts";
import { tokenEndpoint } from "./token-endpoint.ts";

/** Password and anonymous sign-in, sessions and the token endpoint (protocol.md §4.4, §4.5, §6.2). */
export const sessionRoutes: Record<string, AnyRouteSpec> = {
  passwordSignUp: route({
    body: passwordSignUpBody,
    handler: async ({ auth, ctx, body }) => ok(await passwordSignUp({ ...ctx, auth: auth! }, body)),
  }),
  passwordSignIn: route({
    body: passwordSignInBody,
    handler: async ({ auth, ctx, body }) => ok(await passwordSignIn({ ...ctx, auth: auth! }, body)),
  }),
  anonymousSignUp: route({
    body: noBody,
    handler: async ({ auth, ctx }) => ok(await anonymousSignUp({ ...ctx, auth: auth! })),
  }),
  oauthToken: tokenEndpoint,
  createSession: route({
    body: createSessionBody,
    handler: async ({ auth, ctx, body }) => {
      const user = ctx.tables.users.get(body.user_id);
      if (!user || user.projectId !== auth!.project.id) throw knownError("USER_ID_DOES_NOT_EXIST", { user_id: body.user_id });
      const { session, accessToken } = await openSession(ctx, user, {
        ...(body.expires_in_millis !== undefined ? { expiresInMillis: body.expires_in_millis } : {}),
        ...(body.is_impersonation !== undefined ? { isImpersonation: body.is_impersonation } : {}),
      });
      return ok({ refresh_token: session.refreshToken, access_token: accessToken });
    },
  }),
  deleteCurrentSession: route({
    body: noBody,
    handler: ({ auth, ctx }) => {
      // The session is the access token's refresh_token_id; its user need not exist any more (upstream deletes by that
      // id alone), so a deleted user's token gets REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED, which sign-out ignores.
      if (!auth!.sessionId) throw knownError("USER_AUTHENTICATION_REQUIRED");
      endSession(ctx, auth!.sessionId);
      return success();
    },
  }),
  refreshCurrentSession: route({
    body: z.union([z.undefined(), z.strictObject({})]),
    handler: async ({ auth, ctx, request }) => {
      const refreshToken = stackHeader(request.headers, "refreshToken");
      if (!refreshToken) throw knownError("REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED");
      const { accessToken } = await refreshAccessToken(ctx, auth!.project.id, refreshToken);
      return ok({ access_token: accessToken });
    },
  }),
};

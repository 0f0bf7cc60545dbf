import { resetPasswordBody, sendResetCodeBody, setPasswordBody, updatePasswordBody, verificationCodeBody } from "@authsim/sdk/contract";
import { checkResetCode, resetPassword, sendResetCode, setPassword, updatePassword } from "../ops/password.ts";
import { ok, route, success, type AnyRouteSpec } from "./define.ts";
import type { Auth } from "../auth/parse-auth.ts";
import { schemaError } from "../http/parse.ts";
import type { UserRecord } from "../store/records.ts";

/** These routes need a user in the request as part of their schema: without one, upstream's SCHEMA_ERROR names auth.user. */
function userBySchema(auth: Auth, request: Request): UserRecord {
  if (auth.user) return auth.user;
  throw schemaError({ method: request.method, pathname: new URL(request.url).pathname }, ["auth.user must be defined"]);
}

/** Password reset, update and set (protocol.md §6.2, §7.3). */
export const passwordRoutes: Record<string, AnyRouteSpec> = {
  sendResetCode: route({
    body: sendResetCodeBody,
    handler: ({ auth, ctx, body }) => ok(sendResetCode(ctx, auth!.project, body)),
  }),
  checkResetCode: route({
    body: verificationCodeBody,
    handler: ({ auth, ctx, body }) => {
      checkResetCode(ctx, auth!.project, body.code);
      return ok({ is_code_valid: true });
    },
  }),
  resetPassword: route({
    body: resetPasswordBody,
    handler: async ({ auth, ctx, body }) => {
      await resetPassword(ctx, auth!.project, body);
      return success();
    },
  }),
  updatePassword: route({
    body: updatePasswordBody,
    handler: async ({ auth, ctx, body, request }) => {
      await updatePassword(ctx, userBySchema(auth!, request), auth!.sessionId, body);
      return success();
    },
  }),
  setPassword: route({
    body: setPasswordBody,
    handler: async ({ auth, ctx, body, request }) => {
      await setPassword(ctx, auth!.project, userBySchema(auth!, request), body.password);
      return success();
    },
  }),
};

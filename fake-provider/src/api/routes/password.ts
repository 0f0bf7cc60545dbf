import { resetPasswordBody, sendResetCodeBody, setPasswordBody, updatePasswordBody, verificationCodeBody } from "@authsim/sdk/contract";
import { checkResetCode, resetPassword, sendResetCode, setPassword, updatePassword } from "../../domain/ops/password.ts";
import { ok, route, success, type AnyRouteSpec } from "./define.ts";
import { userBySchema } from "./target-user.ts";

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

import {
  checkResetCode,
  resetPassword,
  sendResetCode,
  setPassword,
  updatePassword,
} from "../../domain/ops/sign-in/password.ts";
import { ok, success, type RouteTable } from "./define.ts";
import { userBySchema } from "./user-by-schema.ts";

/** Password reset, update and set (protocol.md §6.2, §7.3). */
export const passwordRoutes: RouteTable = {
  sendResetCode: {
    handler: ({ auth, ctx, body }) => ok(sendResetCode(ctx, auth.project, body)),
  },
  checkResetCode: {
    handler: ({ auth, ctx, body }) => {
      checkResetCode(ctx, auth.project, body.code);
      return ok({ is_code_valid: true });
    },
  },
  resetPassword: {
    handler: async ({ auth, ctx, body }) => {
      await resetPassword(ctx, auth.project, body);
      return success();
    },
  },
  updatePassword: {
    handler: async ({ auth, ctx, body, request }) => {
      await updatePassword(ctx, auth.project, userBySchema(auth, request), auth.sessionId, body);
      return success();
    },
  },
  setPassword: {
    handler: async ({ auth, ctx, body, request }) => {
      await setPassword(ctx, auth.project, userBySchema(auth, request), body.password);
      return success();
    },
  },
};

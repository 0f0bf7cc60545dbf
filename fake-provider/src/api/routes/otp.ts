import { checkSignInCode, otpSignIn, sendSignInCode } from "../../domain/ops/sign-in/otp.ts";
import { ok, type RouteTable } from "./define.ts";

/** One-time code and magic-link sign-in (protocol.md §6.2, §7.2). */
export const otpRoutes: RouteTable = {
  sendSignInCode: {
    handler: ({ auth, ctx, body }) => ok(sendSignInCode(ctx, auth.project, body)),
  },
  otpSignIn: {
    handler: async ({ auth, ctx, body }) => ok(await otpSignIn({ ...ctx, auth: auth }, body.code)),
  },
  otpCheckCode: {
    handler: ({ auth, ctx, body }) => {
      checkSignInCode({ ...ctx, auth: auth }, body.code);
      return ok({ is_code_valid: true });
    },
  },
};

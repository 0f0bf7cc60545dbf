import { sendSignInCodeBody, verificationCodeBody } from "@authsim/sdk/contract";
import { checkSignInCode, otpSignIn, sendSignInCode } from "../../domain/ops/otp.ts";
import { ok, route, type AnyRouteSpec } from "./define.ts";

/** One-time code and magic-link sign-in (protocol.md §6.2, §7.2). */
export const otpRoutes: Record<string, AnyRouteSpec> = {
  sendSignInCode: route({
    body: sendSignInCodeBody,
    handler: ({ auth, ctx, body }) => ok(sendSignInCode(ctx, auth!.project, body)),
  }),
  otpSignIn: route({
    body: verificationCodeBody,
    handler: async ({ auth, ctx, body }) => ok(await otpSignIn({ ...ctx, auth: auth! }, body.code)),
  }),
  otpCheckCode: route({
    body: verificationCodeBody,
    handler: ({ auth, ctx, body }) => {
      checkSignInCode({ ...ctx, auth: auth! }, body.code);
      return ok({ is_code_valid: true });
    },
  }),
};

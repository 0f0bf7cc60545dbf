import {
  cliCompleteBody,
  cliCreateBody,
  cliPollBody,
  initiatePasskeyBody,
  mfaSignInBody,
  passkeySignInBody,
  registerPasskeyBody,
} from "@authsim/sdk/contract";
import { completeCliLogin, createCliLogin, pollCliLogin } from "../../domain/ops/cli-auth.ts";
import { mfaSignIn } from "../../domain/ops/mfa.ts";
import { initiateAuthentication, initiateRegistration, passkeySignIn, registerPasskey } from "../../domain/ops/passkeys.ts";
import { ok, route, type AnyRouteSpec } from "./define.ts";
import { signedInUser } from "./target-user.ts";

/** TOTP sign-in, passkeys and command-line login (protocol.md §6.2, §7.4, §7.6, §7.7). */
export const mfaPasskeyCliRoutes: Record<string, AnyRouteSpec> = {
  mfaSignIn: route({
    body: mfaSignInBody,
    handler: async ({ auth, ctx, body }) => ok(await mfaSignIn(ctx, auth!.project, body)),
  }),
  initiatePasskeyRegistration: route({
    body: initiatePasskeyBody,
    handler: async ({ auth, ctx }) => ok(await initiateRegistration(ctx, auth!.project, signedInUser(auth!))),
  }),
  registerPasskey: route({
    body: registerPasskeyBody,
    handler: async ({ auth, ctx, body }) => ok(await registerPasskey(ctx, auth!.project, signedInUser(auth!), body)),
  }),
  initiatePasskeyAuthentication: route({
    body: initiatePasskeyBody,
    handler: async ({ auth, ctx }) => ok(await initiateAuthentication(ctx, auth!.project)),
  }),
  passkeySignIn: route({
    body: passkeySignInBody,
    handler: async ({ auth, ctx, body }) => ok(await passkeySignIn(ctx, auth!.project, body)),
  }),
  cliCreate: route({
    body: cliCreateBody,
    handler: ({ auth, ctx, body }) => ok(createCliLogin(ctx, auth!.project, body ?? {})),
  }),
  cliPoll: route({
    body: cliPollBody,
    handler: ({ auth, ctx, body }) => {
      const answer = pollCliLogin(ctx, auth!.project, body.polling_code);
      return answer.status === 201 ? { status: 201, body: answer.body } : ok(answer.body);
    },
  }),
  cliComplete: route({
    body: cliCompleteBody,
    handler: async ({ auth, ctx, body }) => ok(await completeCliLogin(ctx, auth!.project, body)),
  }),
};

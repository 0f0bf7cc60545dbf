import { completeCliLogin, createCliLogin, pollCliLogin } from "../../domain/ops/sign-in/cli-auth.ts";
import { mfaSignIn } from "../../domain/ops/sign-in/mfa.ts";
import {
  initiateAuthentication,
  initiateRegistration,
  passkeySignIn,
  registerPasskey,
} from "../../domain/ops/sign-in/passkeys.ts";
import { ok, type RouteTable } from "./define.ts";
import { requireSignedIn } from "../../domain/ops/access.ts";

/** TOTP sign-in, passkeys and command-line login (protocol.md §6.2, §7.4, §7.6, §7.7). */
export const mfaPasskeyCliRoutes: RouteTable = {
  mfaSignIn: {
    handler: async ({ auth, ctx, body }) => ok(await mfaSignIn(ctx, auth.project, body)),
  },
  initiatePasskeyRegistration: {
    handler: async ({ auth, ctx }) => ok(await initiateRegistration(ctx, auth.project, requireSignedIn(auth))),
  },
  registerPasskey: {
    handler: async ({ auth, ctx, body }) => ok(await registerPasskey(ctx, auth.project, requireSignedIn(auth), body)),
  },
  initiatePasskeyAuthentication: {
    handler: async ({ auth, ctx }) => ok(await initiateAuthentication(ctx, auth.project)),
  },
  passkeySignIn: {
    handler: async ({ auth, ctx, body }) => ok(await passkeySignIn(ctx, auth.project, body)),
  },
  cliCreate: {
    handler: ({ auth, ctx, body }) => ok(createCliLogin(ctx, auth.project, body ?? {})),
  },
  cliPoll: {
    handler: ({ auth, ctx, body }) => {
      const answer = pollCliLogin(ctx, auth.project, body.polling_code);
      return answer.status === 201 ? { status: 201, body: answer.body } : ok(answer.body);
    },
  },
  cliComplete: {
    handler: async ({ auth, ctx, body }) => ok(await completeCliLogin(ctx, auth.project, body)),
  },
};

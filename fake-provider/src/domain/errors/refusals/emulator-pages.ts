import type { Arg, Refusal } from "./refusal.ts";

/** Plain-text refusals of the emulator's own pages: strong-auth controls, the mock identity provider (emulator/). */
export const emulatorPagesRefusals = {
  // emulator/control/strong-auth.ts
  idpErrorNotOffered: { status: 400, text: (error: Arg) => `The error must be one the page offers, not "${error}".` },
  // emulator/mock-oauth/server.ts
  signProgressBrowserExpiredFinished: {
    status: 400,
    text: "This sign-in is not in progress in this browser (expired, finished, or started elsewhere). Start again from the app.",
  },
  onlyResponseTypeCodeSupported: { status: 400, text: "Only response_type=code is supported." },
  redirectUriMissingUrl: { status: 400, text: "redirect_uri is missing or not a URL." },
  redirectUriRegisteredClientIt: {
    status: 400,
    text: (value: Arg, clientId: Arg) =>
      `redirect_uri ${value} is not registered for client ${clientId}: it must be the emulator's callback of that provider.`,
  },
  idpWrongPrompt: { status: 400, text: (prompt: Arg, prompt2: Arg) => `This step asks for ${prompt}, not ${prompt2}.` },
  nameAccountSignLogin: { status: 400, text: "Name the account to sign in with (login)." },
} as const satisfies Readonly<Record<string, Refusal>>;

import type { EmailEngineLoader } from "./engine.ts";

/**
 * Outside Node (the emulator bundled into a browser page, e.g. behind msw's setupWorker) there is no node:vm to isolate
 * an email's code in, so TSX themes, templates and drafts do not render there. The provider's built-in emails
 * (verification, reset, magic link, invitations) do not need this and work everywhere.
 */
export const loadEmailEngine: EmailEngineLoader = () =>
  Promise.reject(new Error("rendering TSX emails needs Node's vm module (a sandbox for the email's code), and this runtime has none"));

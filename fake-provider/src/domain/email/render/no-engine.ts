import type { EmailEngineLoader } from "./engine.ts";

/**
 * Outside Node (the emulator bundled into a browser page, e.g. behind msw's setupWorker) the QuickJS sandbox is not
 * loaded: quickjs-engine.ts reads React's sources and the WebAssembly file from node_modules. So TSX themes, templates
 * and drafts do not render there. The provider's built-in emails (verification, reset, magic link, invitations) do not
 * need this and work everywhere.
 */
export const loadEmailEngine: EmailEngineLoader = () =>
  Promise.reject(
    new Error(
      "rendering TSX emails needs the QuickJS sandbox (a WebAssembly module and React's sources), which this runtime does not load",
    ),
  );

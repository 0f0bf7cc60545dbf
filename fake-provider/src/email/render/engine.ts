/**
 * What rendering an email needs from the runtime (sandbox.ts): a TSX compiler, and a fresh isolated context per render
 * in which the compiled email runs, bounded in time. In Node that is sucrase and node:vm (node-engine.ts); elsewhere
 * (a browser page running the emulator) there is none (no-engine.ts). package.json's `#email-engine` import picks
 * one by the "node" condition, so the emulator's core bundles for a browser without Node built-ins.
 */
export interface EmailEngine {
  /** TSX → CommonJS; throws with the compiler's message (line and column) on a syntax error. */
  compile(source: string, filePath: string): string;
  /**
   * Runs `__renderEmail(templateCode, themeCode, inputJson)` (context-sources.ts) in a fresh context and answers its
   * result, or throws: an `EmailRenderTimeout` past `timeoutMillis`, else the error the email's code raised.
   */
  run(input: { templateCode: string; themeCode: string | null; inputJson: string; timeoutMillis: number }): unknown;
}

export class EmailRenderTimeout extends Error {}

/** Loads the engine once (the compiler and React sources are read on first use), or rejects with why there is none. */
export type EmailEngineLoader = () => Promise<EmailEngine>;

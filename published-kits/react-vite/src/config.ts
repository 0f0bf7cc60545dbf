/**
 * The emulator this build talks to, read when the page loads rather than baked in by `vite build`: the test serves
 * `/runtime-config.js` (see index.html) naming the dev server it started, so one build serves every run.
 */
export interface KitConfig {
  apiUrl: string;
  projectId: string;
  publishableClientKey: string;
  /**
   * Hosted mode: the address of the hosted sign-in pages (the env line NEXT_PUBLIC_STACK_HOSTED_HANDLER_URL_TEMPLATE
   * that `npm start` prints). Without it the app serves the kit's handler pages itself under /handler.
   */
  hostedHandlerUrlTemplate?: string;
}

declare global {
  interface Window {
    __AUTHSIM_KIT_CONFIG__?: KitConfig;
  }
}

export function kitConfig(): KitConfig {
  const config = window.__AUTHSIM_KIT_CONFIG__;
  if (!config)
    throw new Error("No /runtime-config.js: serve this build with the emulator's address (see ../README.md).");
  if (config.hostedHandlerUrlTemplate) provideHostedTemplate(config.hostedHandlerUrlTemplate);
  return config;
}

/**
 * The kit reads NEXT_PUBLIC_STACK_HOSTED_HANDLER_URL_TEMPLATE from `process.env`, and only when `process` exists. In a
 * browser build neither does: vite.config.ts points the name at a global set here, before the app is made, and an
 * empty `process` lets the kit look.
 */
function provideHostedTemplate(template: string): void {
  const holder = globalThis as { process?: object; __AUTHSIM_HOSTED_HANDLER_URL_TEMPLATE__?: string };
  holder.process ??= { env: {} };
  holder.__AUTHSIM_HOSTED_HANDLER_URL_TEMPLATE__ = template;
}

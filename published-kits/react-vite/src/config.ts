/**
 * The emulator this build talks to, read when the page loads rather than baked in by `vite build`: the test serves
 * `/runtime-config.js` (see index.html) naming the dev server it started, so one build serves every run.
 */
export interface KitConfig {
  apiUrl: string;
  projectId: string;
  publishableClientKey: string;
}

declare global {
  interface Window {
    __AUTHSIM_KIT_CONFIG__?: KitConfig;
  }
}

export function kitConfig(): KitConfig {
  const config = window.__AUTHSIM_KIT_CONFIG__;
  if (!config) throw new Error("No /runtime-config.js: serve this build with the emulator's address (see ../README.md).");
  return config;
}

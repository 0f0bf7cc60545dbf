import { defineConfig } from "vite";

// A plain production build (no plugins): the kit's components as an app's users get them.
export default defineConfig({
  build: { outDir: "dist", emptyOutDir: true, sourcemap: false },
  logLevel: "warn",
  // The kit reads its hosted pages' address from process.env, which a browser build has not got: a Vite app names it
  // here. Ours reads it from the runtime config when the page loads (src/config.ts), so one build serves any port.
  define: {
    "process.env.NEXT_PUBLIC_STACK_HOSTED_HANDLER_URL_TEMPLATE": "globalThis.__AUTHSIM_HOSTED_HANDLER_URL_TEMPLATE__",
  },
});

import { defineConfig } from "vite";

// A plain production build (no plugins): the kit's components as an app's users get them.
export default defineConfig({
  build: { outDir: "dist", emptyOutDir: true, sourcemap: false },
  logLevel: "warn",
});

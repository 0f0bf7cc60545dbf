import { configDefaults, defineConfig } from "vitest/config";

// One vitest run with a project per package, so `npm test` covers the whole workspace.
export default defineConfig({
  test: {
    projects: [
      { test: { name: "sdk", include: ["sdk/src/**/*.test.ts"] } },
      {
        test: { name: "fake-provider", include: ["fake-provider/src/**/*.test.ts"], exclude: [...configDefaults.exclude, "fake-provider/src/**/*.spawn.test.ts"] },
      },
      // The real dev server (src/cli.ts) as a child process: each start takes a second or two (more when it rebuilds
      // the dashboard), too slow for the default timeouts.
      { test: { name: "cli", include: ["fake-provider/src/**/*.spawn.test.ts"], testTimeout: 120_000 } },
      { test: { name: "fixtures", include: ["fixtures/src/**/*.test.ts"] } },
      // The dashboard's Node side (build freshness, serving the files) and its Vite build.
      {
        test: {
          name: "dashboard",
          include: ["fake-provider/dashboard/**/*.test.ts"],
          exclude: [...configDefaults.exclude, "fake-provider/dashboard/**/*.browser.test.ts"],
          testTimeout: 30_000,
        },
      },
      // The dashboard in Debian's Chromium against the real dev server (src/cli.ts) on a loopback port.
      {
        test: {
          name: "dashboard-browser",
          include: ["fake-provider/dashboard/**/*.browser.test.ts"],
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
      // The hosted handler pages' Node side (serving them and their config) and their Vite build, with the build
      // freshness shared with the dashboard (fake-provider/bundles).
      {
        test: {
          name: "hosted",
          include: ["fake-provider/hosted/**/*.test.ts", "fake-provider/bundles/**/*.test.ts"],
          exclude: [...configDefaults.exclude, "fake-provider/hosted/**/*.browser.test.ts"],
          testTimeout: 30_000,
        },
      },
      // The hosted sign-in pages in Debian's Chromium against the real dev server, every flow a person can take.
      {
        test: {
          name: "hosted-browser",
          include: ["fake-provider/hosted/**/*.browser.test.ts"],
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
      // The whole emulator bundled into a page behind msw's setupWorker (fake-provider/msw-browser), in Debian's Chromium.
      {
        test: {
          name: "msw-browser",
          include: ["fake-provider/msw-browser/**/*.browser.test.ts"],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: "conformance",
          include: ["conformance/src/**/*.test.ts"],
          testTimeout: 30_000,
          hookTimeout: 30_000,
        },
      },
      {
        // Hooks and components in a simulated DOM, against the in-process fake provider.
        test: {
          name: "react",
          include: ["react/src/**/*.test.ts", "react/src/**/*.test.tsx"],
          exclude: [...configDefaults.exclude, "react/src/**/*.browser.test.ts"],
          environment: "happy-dom",
          // A page origin, so the SDK can build absolute callback URLs (an about:blank page has none).
          environmentOptions: { happyDOM: { url: "http://localhost:3000/" } },
          testTimeout: 15_000,
        },
      },
      {
        // The demo app built with Vite and driven in Debian's Chromium (playwright-core) over loopback ports.
        test: {
          name: "react-browser",
          include: ["react/src/**/*.browser.test.ts"],
          testTimeout: 120_000,
          hookTimeout: 180_000,
        },
      },
    ],
  },
});

import { defaultClientConditions, defaultServerConditions } from "vite";
import { configDefaults, defineConfig, type TestProjectInlineConfiguration } from "vitest/config";

/**
 * The workspace packages from their sources: each export map starts with an "@authsim/source" condition naming src/*.ts
 * (users of the packages resolve dist/). Inline projects do not inherit the root config, so each gets it.
 */
const fromSources = {
  resolve: { conditions: ["@authsim/source", ...defaultClientConditions] },
  ssr: {
    resolve: { conditions: ["@authsim/source", ...defaultServerConditions], externalConditions: ["@authsim/source"] },
  },
};
const project = (config: TestProjectInlineConfiguration): TestProjectInlineConfiguration => ({
  ...fromSources,
  ...config,
});

/**
 * The fake provider's test files that change process-wide state (msw's interception of fetch, a happy-dom window,
 * mocked modules, the email sandbox's engine, a Node server's global Response): each runs in a module graph of its own.
 * The others build their own provider, store, clock and random source and share nothing else, so they share one module
 * graph per worker (isolate: false): importing the emulator again for every file was half of what the project cost
 * (150 s → 75 s of CPU). A file that changes a global belongs in this list.
 */
const isolatedFakeProviderTests = [
  "fake-provider/src/api/msw/**/*.test.ts",
  "fake-provider/src/domain/email/render/**/*.test.ts",
  // Serves a provider with @hono/node-server, which replaces the global Response with its own.
  "fake-provider/src/emulator/faults/faults.test.ts",
];

/** SDK files that reset the module registry (vi.resetModules): a module graph of their own. */
const isolatedSdkTests = ["sdk/src/admin/owned-project-apps.test.ts"];

/** Conformance files that intercept fetch with msw: a module graph of their own. */
const isolatedConformanceTests = ["conformance/src/faults/**/*.test.ts"];

// One vitest run with a project per package, so `npm test` covers the whole workspace.
export default defineConfig({
  test: {
    // Beside the usual report, a JSON one of each run: `npm run bench` lists the slowest test files from it (bench/slow-tests.ts).
    reporters: ["default", "json"],
    outputFile: { json: "test-artifacts/vitest-report.json" },
    // Vitest's default on a 2-core machine is one worker (cores − 1): files ran one at a time, and most of the browser,
    // spawn and packages tests' time is spent waiting on another process (Chromium, a dev server, npm). Two workers
    // overlap that waiting with the next file's work (issue 30). The published kits' group keeps its own two.
    maxWorkers: 2,
    projects: [
      // The SDK's files share nothing global (no mocks, no stubbed globals): one module graph per worker, as the fake
      // provider's, instead of a fresh worker importing the SDK again for each of 37 files (69 s → 26 s, one run each).
      // The one that resets the module registry to import each package entry afresh keeps a worker of its own.
      project({
        test: {
          name: "sdk",
          include: ["sdk/src/**/*.test.ts"],
          exclude: [...configDefaults.exclude, ...isolatedSdkTests],
          isolate: false,
        },
      }),
      project({ test: { name: "sdk-isolated", include: isolatedSdkTests } }),
      project({
        // The first email a test file renders starts the compiler (esbuild's WebAssembly build, a few seconds on a busy
        // machine) and the sandbox's thread: more than the default 5 s.
        test: {
          name: "fake-provider",
          include: ["fake-provider/src/**/*.test.ts"],
          exclude: [
            ...configDefaults.exclude,
            "fake-provider/src/**/*.spawn.test.ts",
            "fake-provider/src/**/*.seam.test.ts",
            ...isolatedFakeProviderTests,
          ],
          isolate: false,
          testTimeout: 20_000,
        },
      }),
      project({
        test: { name: "fake-provider-isolated", include: isolatedFakeProviderTests, testTimeout: 20_000 },
      }),
      // Operations, and routes' handlers, at their seam (test-support/op-seam.ts): each test builds its own store, clock
      // and random source and nothing else is global, so the files share one module graph per worker (isolate: false)
      // instead of importing the emulator's modules again for every file, most of what such a file would otherwise cost.
      project({
        test: {
          name: "fake-provider-seam",
          include: ["fake-provider/src/**/*.seam.test.ts"],
          isolate: false,
          testTimeout: 20_000,
        },
      }),
      // The CLI's Node-side modules, and the dev server in Chromium (authsim/playwright): each start of the server takes
      // a second or two (more when it rebuilds the dashboard), too slow for the default timeouts.
      project({
        test: {
          name: "cli",
          include: ["authsim/src/**/*.test.ts"],
          exclude: [...configDefaults.exclude, "authsim/src/**/*.spawn.test.ts"],
          testTimeout: 120_000,
        },
      }),
      // The real dev server (authsim/src/cli.ts) as a child process, held to wall-time bounds (an answer within 1 s
      // while a hostile pattern runs, exec's 30 s): after the other projects, one file at a time, so that a neighbouring
      // file's work does not take the server's core.
      project({
        test: {
          name: "cli-spawn",
          include: ["authsim/src/**/*.spawn.test.ts"],
          sequence: { groupOrder: 1 },
          maxWorkers: 1,
          testTimeout: 120_000,
        },
      }),
      // The packages as users get them: packed, installed into an app outside the repo, imported, type-checked, run.
      project({
        test: { name: "packages", include: ["scripts/**/*.test.ts"], testTimeout: 600_000, hookTimeout: 600_000 },
      }),
      project({ test: { name: "fixtures", include: ["fixtures/src/**/*.test.ts"] } }),
      // The dashboard's Node side (build freshness, serving the files) and its Vite build.
      project({
        test: {
          name: "dashboard",
          include: ["authsim/dashboard/**/*.test.ts"],
          exclude: [...configDefaults.exclude, "authsim/dashboard/**/*.browser.test.ts"],
          testTimeout: 30_000,
        },
      }),
      // The dashboard in Debian's Chromium against the real dev server (authsim/src/cli.ts) on a loopback port.
      project({
        test: {
          name: "dashboard-browser",
          include: ["authsim/dashboard/**/*.browser.test.ts"],
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      }),
      // The hosted handler pages' Node side (serving them and their config) and their Vite build, with the build
      // freshness shared with the dashboard (authsim/bundles).
      project({
        test: {
          name: "hosted",
          include: ["authsim/hosted/**/*.test.ts", "authsim/bundles/**/*.test.ts"],
          exclude: [...configDefaults.exclude, "authsim/hosted/**/*.browser.test.ts"],
          testTimeout: 30_000,
        },
      }),
      // The hosted sign-in pages in Debian's Chromium against the real dev server, every flow a person can take.
      project({
        test: {
          name: "hosted-browser",
          include: ["authsim/hosted/**/*.browser.test.ts"],
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      }),
      // The whole emulator bundled into a page behind msw's setupWorker (fake-provider/msw-browser), in Debian's Chromium.
      project({
        test: {
          name: "msw-browser",
          include: ["fake-provider/msw-browser/**/*.browser.test.ts"],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      }),
      project({
        test: {
          name: "conformance",
          include: ["conformance/src/**/*.test.ts"],
          exclude: [...configDefaults.exclude, ...isolatedConformanceTests],
          // As the fake provider's: each suite makes its own providers and shares nothing else (126 s → 73 s).
          isolate: false,
          testTimeout: 30_000,
          hookTimeout: 30_000,
        },
      }),
      project({
        test: {
          name: "conformance-isolated",
          include: isolatedConformanceTests,
          testTimeout: 30_000,
          hookTimeout: 30_000,
        },
      }),
      project({
        // Hooks and components in a simulated DOM, against the in-process fake provider.
        test: {
          name: "react",
          include: ["react/src/**/*.test.ts", "react/src/**/*.test.tsx"],
          exclude: [...configDefaults.exclude, "react/src/**/*.browser.test.ts"],
          environment: "happy-dom",
          // A page origin, so the SDK can build absolute callback URLs (an about:blank page has none).
          environmentOptions: { happyDOM: { url: "http://localhost:3000/" } },
          // Each file renders into its own container and unmounts it, and none mocks a module or stubs a global: one
          // module graph and one simulated DOM per worker, not a fresh worker, window and React import per file
          // (136 s → 43 s, one run each).
          isolate: false,
          testTimeout: 15_000,
        },
      }),
      project({
        // The demo app built with Vite and driven in Debian's Chromium (playwright-core) over loopback ports.
        test: {
          name: "react-browser",
          include: ["react/src/**/*.browser.test.ts"],
          testTimeout: 120_000,
          hookTimeout: 180_000,
        },
      }),
      project({
        // The published @stackframe/react (Vite) and @stackframe/stack (Next.js) kits, unchanged, against the real dev
        // server in Debian's Chromium. Each app has its own lockfile outside the workspaces; the global setup starts
        // its `npm ci` and build in the background (only when missing or stale), so they overlap the other projects;
        // these two files run last, side by side (mostly waiting on pages), by then with nothing else running
        // (published-kits/README.md).
        test: {
          name: "published-kits",
          include: ["published-kits/e2e/**/*.browser.test.ts"],
          globalSetup: ["published-kits/e2e/global-setup.ts"],
          sequence: { groupOrder: 2 },
          maxWorkers: 2,
          testTimeout: 60_000,
          hookTimeout: 300_000,
        },
      }),
    ],
  },
});

import { defineConfig } from "vitest/config";

// One vitest run with a project per package, so `npm test` covers the whole workspace.
export default defineConfig({
  test: {
    projects: [
      { test: { name: "sdk", include: ["sdk/src/**/*.test.ts"] } },
      { test: { name: "fake-provider", include: ["fake-provider/src/**/*.test.ts"] } },
      { test: { name: "fixtures", include: ["fixtures/src/**/*.test.ts"] } },
      {
        test: {
          name: "conformance",
          include: ["conformance/src/**/*.test.ts"],
          testTimeout: 30_000,
          hookTimeout: 30_000,
        },
      },
    ],
  },
});

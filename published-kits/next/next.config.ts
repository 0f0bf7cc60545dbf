import type { NextConfig } from "next";

const config: NextConfig = {
  // The build goes to dist/ (not .next/): the repository's linter and .gitignore already leave dist/ folders alone.
  distDir: "dist",
  // No Next.js dev indicator or telemetry prompt in screenshots; the tests run offline.
  devIndicators: false,
};

export default config;

import { Suspense } from "react";
import { Handler } from "@authsim/react";
import { HomePage } from "./home-page.tsx";
import { HOSTED_HOME } from "./hosted-config.ts";

/** Routes by path: the home page at /app, the handler pages (sign-in, sign-up, account settings …) under /handler. */
export function HostedApp({ path, projectName }: { path: string; projectName: string }) {
  return <Suspense fallback={<p role="status">Loading…</p>}>{path === HOSTED_HOME ? <HomePage projectName={projectName} /> : <Handler />}</Suspense>;
}

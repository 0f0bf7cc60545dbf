import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { StackClientApp } from "@authsim/sdk";
import { StackProvider } from "@authsim/react";
import { HostedApp } from "./hosted-app.tsx";
import { HOSTED_CONFIG_PATH, HOSTED_HANDLER, HOSTED_HOME, type HostedConfig } from "./hosted-config.ts";

/**
 * The hosted handler pages' entry: which project to sign in to comes from the server next to the page (the dev
 * project), so the bundle is built once and never names a port. Full page loads between pages (redirectMethod
 * "window"): the server answers every hosted path with this same page.
 */
async function start(): Promise<void> {
  const root = document.getElementById("root");
  if (!root) throw new Error("The hosted page has no #root element.");
  const response = await fetch(HOSTED_CONFIG_PATH, { cache: "no-store" });
  if (!response.ok) throw new Error(`${HOSTED_CONFIG_PATH} answered ${response.status}.`);
  const config = (await response.json()) as HostedConfig;
  const app = new StackClientApp({
    baseUrl: config.baseUrl,
    projectId: config.projectId,
    publishableClientKey: config.publishableClientKey,
    tokenStore: "cookie",
    redirectMethod: "window",
    urls: { handler: HOSTED_HANDLER, home: HOSTED_HOME },
  });
  createRoot(root).render(
    <StrictMode>
      <StackProvider app={app}>
        <HostedApp path={window.location.pathname} projectName={config.projectName} />
      </StackProvider>
    </StrictMode>,
  );
}

start().catch((error: unknown) => {
  // Without a project nothing else can render: say why on the page rather than leave it blank.
  document.body.textContent = `The hosted sign-in could not start: ${error instanceof Error ? error.message : String(error)}`;
});

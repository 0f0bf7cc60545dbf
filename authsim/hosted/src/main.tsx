import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { clientCachesSymbol, projectFromClientJson, StackClientApp } from "@authsim/sdk";
import { HostedApp } from "./hosted-app.tsx";
import { HostedProvider } from "./unhandled-error.tsx";
import {
  HOSTED_CONFIG_ELEMENT_ID,
  HOSTED_CONFIG_PATH,
  HOSTED_HANDLER,
  HOSTED_HOME,
  PROJECT_QUERY,
  withProject,
  type HostedConfig,
} from "./hosted-config.ts";

/**
 * The hosted handler pages' entry: which project to sign in to comes from the server next to the page (the page's
 * `?project_id=`, the one it remembers, or the dev project), so the bundle is built once and never names a port or a
 * project. Full page loads between pages (redirectMethod "window"): the server answers every hosted path with this page.
 * The server inlines the config in the page (serve.ts); a page served without it asks for it.
 */
function inlinedConfig(): HostedConfig | null {
  const text = document.getElementById(HOSTED_CONFIG_ELEMENT_ID)?.textContent;
  return text ? (JSON.parse(text) as HostedConfig) : null;
}

async function loadConfig(): Promise<HostedConfig> {
  // The page's own choice goes along, so the config cannot disagree with the address even where cookies are refused.
  const asked = new URLSearchParams(window.location.search).get(PROJECT_QUERY);
  const response = await fetch(asked ? withProject(HOSTED_CONFIG_PATH, asked) : HOSTED_CONFIG_PATH, {
    cache: "no-store",
  });
  if (!response.ok) {
    const body = (await response.json().catch(() => null)) as { error?: string } | null;
    throw new Error(body?.error ?? `${HOSTED_CONFIG_PATH} answered ${response.status}.`);
  }
  return (await response.json()) as HostedConfig;
}

async function start(): Promise<void> {
  const root = document.getElementById("root");
  if (!root) throw new Error("The hosted page has no #root element.");
  const config = inlinedConfig() ?? (await loadConfig());
  // Links the emulator sends back to (emailed links, the OAuth callback) name their project: they then land on it in
  // any browser, and even after this one picked another project meanwhile. Only the path routes the page (Handler).
  const back = (page: string) => withProject(`${HOSTED_HANDLER}/${page}`, config.projectId);
  const app = new StackClientApp({
    baseUrl: config.baseUrl,
    projectId: config.projectId,
    ...(config.publishableClientKey ? { publishableClientKey: config.publishableClientKey } : {}),
    tokenStore: "cookie",
    redirectMethod: "window",
    urls: {
      handler: HOSTED_HANDLER,
      home: HOSTED_HOME,
      emailVerification: back("email-verification"),
      passwordReset: back("password-reset"),
      magicLinkCallback: back("magic-link-callback"),
      teamInvitation: back("team-invitation"),
      oauthCallback: back("oauth-callback"),
    },
  });
  // The project the page was served with is the project cache's value on the first render: no loading state for it.
  app[clientCachesSymbol]().project.seed(projectFromClientJson(config.project));
  createRoot(root).render(
    <StrictMode>
      <HostedProvider
        app={app}
        trustedRedirects={{ allowLocalhost: config.allowLocalhost, domains: config.project.config.domains }}
      >
        <HostedApp path={window.location.pathname} config={config} />
      </HostedProvider>
    </StrictMode>,
  );
}

start().catch((error: unknown) => {
  // Without a project nothing else can render: say why on the page rather than leave it blank.
  document.body.textContent = `The hosted sign-in could not start: ${error instanceof Error ? error.message : String(error)}`;
});

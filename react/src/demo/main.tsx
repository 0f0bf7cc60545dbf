import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { StackClientApp } from "@authsim/sdk";
import { StackProvider } from "../index.ts";
import { DemoApp } from "./demo-app.tsx";

/** Where the provider is and which project to use: served next to the page by whoever serves the demo. */
interface DemoConfig {
  baseUrl: string;
  projectId: string;
  publishableClientKey: string;
}

async function start(): Promise<void> {
  const config = (await (await fetch("/demo-config.json")).json()) as DemoConfig;
  const app = new StackClientApp({ ...config, tokenStore: "cookie", redirectMethod: "window" });
  const root = document.getElementById("root");
  if (!root) throw new Error("The demo page has no #root element.");
  createRoot(root).render(
    <StrictMode>
      <StackProvider app={app}>
        <DemoApp path={window.location.pathname} />
      </StackProvider>
    </StrictMode>,
  );
}

void start();

import { StackClientApp } from "@stackframe/react";
import { useNavigate } from "react-router-dom";
import { kitConfig } from "./config.ts";

const config = kitConfig();

// As the kit's React setup guide has it, with the emulator as the API (baseUrl) and the dev project's public key. In
// hosted mode every handler page is the hosted one (the template in the config names where they are).
export const stackClientApp = new StackClientApp({
  baseUrl: config.apiUrl,
  projectId: config.projectId,
  publishableClientKey: config.publishableClientKey,
  tokenStore: "cookie",
  redirectMethod: { useNavigate },
  ...(config.hostedHandlerUrlTemplate ? { urls: { default: { type: "hosted" as const } } } : {}),
});

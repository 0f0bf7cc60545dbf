import { StackClientApp } from "@stackframe/react";
import { useNavigate } from "react-router-dom";
import { kitConfig } from "./config.ts";

const config = kitConfig();

// As the kit's React setup guide has it, with the emulator as the API (baseUrl) and the dev project's public key.
export const stackClientApp = new StackClientApp({
  baseUrl: config.apiUrl,
  projectId: config.projectId,
  publishableClientKey: config.publishableClientKey,
  tokenStore: "cookie",
  redirectMethod: { useNavigate },
});

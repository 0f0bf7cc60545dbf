import { Suspense } from "react";
import { Handler } from "@authsim/react";
import { HomePage } from "./home-page.tsx";
import { HOSTED_HANDLER, HOSTED_HOME, type HostedConfig } from "./hosted-config.ts";
import { TrustNotice } from "./trust-notice.tsx";
import "./hosted.css";

/**
 * Routes by path: the home page at /app, the handler pages (sign-in, sign-up, account settings …) under /handler. The
 * bare /handler is the home page too: the published kit's hosted mode sends home, afterSignIn, afterSignUp and
 * afterSignOut there (its hosted path for them is "handler").
 */
export function HostedApp({ path, config }: { path: string; config: HostedConfig }) {
  return (
    <>
      {!config.originTrusted && <TrustNotice config={config} />}
      <Suspense
        fallback={
          <p role="status" className="hosted-loading">
            Loading…
          </p>
        }
      >
        {path === HOSTED_HOME || path === HOSTED_HANDLER ? <HomePage config={config} /> : <Handler />}
      </Suspense>
    </>
  );
}

import { useStackApp } from "../hooks/use-stack-app.ts";
import { capability, unwrap } from "../handler/capabilities.ts";
import { CodeCallbackPage } from "./code-callback-page.tsx";
import { Unavailable } from "./unavailable.tsx";

/** The email verification callback (spec §2, §4): verifies the code of the link. */
export function EmailVerificationPage() {
  const app = useStackApp();
  const verify = capability(app, "verifyEmail");
  if (!verify) return <Unavailable title="Verify your email" call="verifyEmail" />;
  return (
    <CodeCallbackPage
      title="Verify your email"
      working="Verifying your email…"
      done="Your email is verified."
      consume={async (code) => unwrap(await verify(code))}
    />
  );
}

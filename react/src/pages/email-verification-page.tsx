import { useStackApp } from "../hooks/use-stack-app.ts";
import { CodeCallbackPage } from "./code-callback-page.tsx";

/** The email verification callback (spec §2, §4): verifies the code of the link. */
export function EmailVerificationPage() {
  const app = useStackApp();
  return (
    <CodeCallbackPage
      title="Verify your email"
      working="Verifying your email…"
      done="Your email is verified."
      consume={async (code) => {
        const result = await app.verifyEmail(code);
        if (result.status === "error") throw result.error;
      }}
    />
  );
}

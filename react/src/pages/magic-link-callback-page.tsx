import { useStackApp } from "../hooks/use-stack-app.ts";
import { useFinishSignIn } from "../components/use-finish-sign-in.ts";
import { CodeCallbackPage } from "./code-callback-page.tsx";

/**
 * The magic link callback: signs in with the link's code; the SDK then sends a new user to afterSignUp and others to
 * afterSignIn (spec §4), which only it can tell apart (is_new_user), unless the link carries after_auth_return_to
 * (the sign-in page puts it there, spec §2), which wins.
 */
export function MagicLinkCallbackPage() {
  const app = useStackApp();
  const finish = useFinishSignIn();
  return (
    <CodeCallbackPage
      title="Signing in"
      working="Signing you in…"
      done="Signed in. Redirecting…"
      consume={async (code) => void (await finish((options) => app.signInWithMagicLink(code, options)))}
    />
  );
}

import { isKnownErrorCode, knownErrorMessage } from "@authsim/sdk/contract";
import { useStackApp } from "../hooks/use-stack-app.ts";
import { AuthPage } from "../components/form-parts.tsx";
import { usePageUrl } from "../navigation/page-location.ts";

/**
 * The error page (spec §2). Flows that fail outside the app (e.g. a provider callback) land here with `errorCode`
 * and/or `message`; a known code shows the catalogue's message.
 */
export function ErrorPage() {
  const app = useStackApp();
  const params = usePageUrl().searchParams;
  const code = params.get("errorCode");
  const given = params.get("message");
  const text = given ?? (code && isKnownErrorCode(code) ? knownErrorMessage(code, {}) : "An unknown error occurred.");
  return (
    <AuthPage title="Something went wrong">
      <p role="alert" className="authsim-error">
        {text}
      </p>
      {code ? <p className="authsim-muted">Error code: {code}</p> : null}
      <a href={app.urls.home}>Go home</a>
    </AuthPage>
  );
}

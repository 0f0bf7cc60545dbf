import { useEffect, useRef, useState } from "react";
import { useAsyncAction } from "../errors/use-async-action.ts";
import { ErrorMessage } from "../errors/error-message.tsx";
import { AuthPage, Status } from "../components/form-parts.tsx";
import { usePageUrl } from "../navigation/page-location.ts";

/**
 * A page opened from an email link carrying `code` (email verification, magic link): it uses the code once on
 * arrival, then shows the outcome.
 */
export function CodeCallbackPage({
  title,
  working,
  done,
  consume,
}: {
  title: string;
  working: string;
  done: string;
  consume(code: string): Promise<void>;
}) {
  const code = usePageUrl().searchParams.get("code");
  const [finished, setFinished] = useState(false);
  const started = useRef(false);
  const action = useAsyncAction(async (c: string) => {
    await consume(c);
    setFinished(true);
  });
  const { run } = action;
  useEffect(() => {
    // A code is single use (spec §4): development's double effects must not spend it twice.
    if (!code || started.current) return;
    started.current = true;
    void run(code);
  }, [code, run]);
  return (
    <AuthPage title={title}>
      {!code ? (
        <p role="alert" className="authsim-error">
          This link is incomplete: it has no code.
        </p>
      ) : null}
      <ErrorMessage error={action.error} />
      <Status>{finished ? done : code && !action.error ? working : null}</Status>
    </AuthPage>
  );
}

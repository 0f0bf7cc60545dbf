import { useCallback, useRef, useState, type FormEvent } from "react";
import { isKnownError } from "@authsim/sdk";
import { useStackContext } from "../hooks/use-stack-app.ts";
import { UntrustedRedirectError } from "../navigation/return-to.ts";

/** A form's async action: its pending flag and the error to show inline. */
export interface AsyncAction<A extends unknown[]> {
  run(...args: A): Promise<void>;
  pending: boolean;
  error: unknown;
  setError(error: unknown): void;
}

/**
 * Runs an action once at a time. Expected failures (known errors, refused redirects) are shown inline with their
 * message; anything else is an unhandled async error and goes to the provider's alert (spec §8, client behaviour).
 */
export function useAsyncAction<A extends unknown[]>(action: (...args: A) => Promise<void>): AsyncAction<A> {
  const { onUnhandledError } = useStackContext();
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const busy = useRef(false);
  const run = useCallback(
    async (...args: A) => {
      if (busy.current) return;
      busy.current = true;
      setPending(true);
      setError(null);
      try {
        await action(...args);
      } catch (e) {
        if (isKnownError(e) || e instanceof UntrustedRedirectError) setError(e);
        else
          onUnhandledError(
            e instanceof Error ? `An unexpected error occurred: ${e.message}` : "An unexpected error occurred.",
            e,
          );
      } finally {
        busy.current = false;
        setPending(false);
      }
    },
    [action, onUnhandledError],
  );
  return { run, pending, error, setError };
}

/** A form's onSubmit that runs `action` instead of letting the browser post the form and leave the page. */
export function submitHandler(action: AsyncAction<[]>): (event: FormEvent) => void {
  return (event) => {
    event.preventDefault();
    void action.run();
  };
}

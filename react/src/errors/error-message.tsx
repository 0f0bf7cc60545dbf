import { isKnownError } from "@authsim/sdk";
import { UntrustedRedirectError } from "../navigation/return-to.ts";

/** What a person reads for an error: a known error's own message (spec §8), else a short generic line. */
export function errorText(error: unknown): string {
  if (isKnownError(error) || error instanceof UntrustedRedirectError) return error.message;
  if (error instanceof Error && error.name === "ConnectionError") return error.message;
  return "Something went wrong. Please try again.";
}

/** An inline error, announced to screen readers. */
export function ErrorMessage({ error }: { error: unknown }) {
  if (error === null || error === undefined) return null;
  return (
    <p role="alert" className="authsim-error">
      {errorText(error)}
    </p>
  );
}

import { useCallback, useState, type ReactNode } from "react";
import type { StackClientApp } from "@authsim/sdk";
import { StackProvider, type TrustedRedirects } from "@authsim/react";
import "./hosted.css";

/**
 * The hosted pages' provider, showing an error no page expected (the SDK refusing a value from the link before any
 * request, say a `?code=` far too long) in the page itself. The provider's default is the browser's alert() (spec §8,
 * what an app gets): a modal that blocks the page and shows the raw validation text, which a link anyone can craft
 * must not be able to raise. The project's trust settings go with it: a return address on another of the project's
 * trusted origins (an app on localhost when the project allows localhost) is followed as the API would allow it.
 */
export function HostedProvider({
  app,
  trustedRedirects,
  children,
}: {
  app: StackClientApp;
  trustedRedirects: TrustedRedirects;
  children: ReactNode;
}) {
  const [message, setMessage] = useState<string | null>(null);
  const onUnhandledError = useCallback((fallback: string, error: unknown) => {
    console.error(error);
    setMessage(readableError(fallback, error));
  }, []);
  return (
    <StackProvider app={app} trustedRedirects={trustedRedirects} onUnhandledError={onUnhandledError}>
      {message !== null && (
        <p role="alert" className="hosted-warning hosted-unhandled">
          {message}
        </p>
      )}
      {children}
    </StackProvider>
  );
}

interface Issue {
  path?: readonly PropertyKey[];
  message?: string;
}

/** A validation error (its `issues`, as zod gives them) as one line per value; anything else by the provider's message. */
export function readableError(fallback: string, error: unknown): string {
  const issues = (error as { issues?: unknown } | null)?.issues;
  if (!Array.isArray(issues) || issues.length === 0) return fallback;
  const lines = (issues as Issue[]).map((issue) => {
    const where = issue.path?.length ? issue.path.map(String).join(".") : "a value";
    return `${where}: ${issue.message ?? "is invalid"}`;
  });
  return `This page was given a value it cannot use (${lines.join("; ")}). Check the link or the form and try again.`;
}

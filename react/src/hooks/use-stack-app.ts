import { useContext } from "react";
import type { StackClientApp } from "@authsim/sdk";
import { StackContext, type StackContextValue } from "../provider/stack-context.ts";

export function useStackContext(): StackContextValue {
  const value = useContext(StackContext);
  if (!value) throw new Error("This hook or component needs a <StackProvider app={...}> above it.");
  return value;
}

/** The app given to the nearest StackProvider. */
export function useStackApp(): StackClientApp {
  return useStackContext().app;
}

import { act, render, type RenderResult } from "@testing-library/react";
import type { ReactNode } from "react";
import { devProjectSeed } from "@authsim/fixtures";
import { createFakeProvider, type FakeProvider } from "@authsim/fake-provider";
import { StackClientApp, type StackClientAppOptions } from "@authsim/sdk";
import { StackProvider, type StackProviderProps } from "../provider/stack-provider.tsx";

/**
 * Component tests against the in-process fake provider: the SDK's fetch is the fake's, navigation is recorded instead
 * of performed, and unhandled errors are collected instead of alerted.
 */
export interface TestApp {
  provider: FakeProvider;
  app: StackClientApp;
  navigations: string[];
  alerts: string[];
  /** Another app on the same provider (e.g. to create a user without touching this app's session). */
  otherApp(options?: Partial<StackClientAppOptions>): StackClientApp;
}

export function createTestApp(
  options: Partial<StackClientAppOptions> = {},
  provider = createFakeProvider({ onUnexpectedError: () => {} }),
): TestApp {
  const navigations: string[] = [];
  const base = (extra: Partial<StackClientAppOptions>): StackClientApp =>
    new StackClientApp({
      projectId: devProjectSeed.id,
      publishableClientKey: devProjectSeed.keys.publishable_client_key,
      baseUrl: "http://authsim.test",
      tokenStore: "memory",
      fetch: (url, init) => provider.fetch(url, init),
      redirectMethod: { navigate: (to) => void navigations.push(to) },
      ...extra,
    });
  provider.settings.apiBaseUrl = "http://authsim.test";
  return { provider, app: base(options), navigations, alerts: [], otherApp: (extra = {}) => base(extra) };
}

/**
 * Renders under a StackProvider inside an awaited act(): React 19 only retries a render that suspended (Suspense over
 * the SDK cache) when the act scope it suspended in is awaited.
 */
export async function renderWithApp(
  t: TestApp,
  ui: ReactNode,
  props: Partial<StackProviderProps> = {},
): Promise<RenderResult> {
  let result: RenderResult | undefined;
  await act(async () => {
    result = render(
      <StackProvider app={t.app} onUnhandledError={(message) => void t.alerts.push(message)} {...props}>
        {ui}
      </StackProvider>,
    );
  });
  return result!;
}

let counter = 0;
/** A fresh address per test, so tests on a shared provider never collide. */
export function uniqueEmail(prefix = "user"): string {
  counter += 1;
  return `${prefix}-${counter}@example.com`;
}

export const PASSWORD = "correct horse battery";

/** A user signed up through another app, so this app's session stays signed out. */
export async function existingUser(t: TestApp, email = uniqueEmail()): Promise<string> {
  const result = await t
    .otherApp()
    .signUpWithCredential({ email, password: PASSWORD, noRedirect: true, noVerificationCallback: true });
  if (result.status === "error") throw result.error;
  return email;
}

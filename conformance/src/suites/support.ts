import { expect, it } from "vitest";
import { devProjectSeed, internalProjectSeed } from "@authsim/fixtures";
import type { FakeProvider } from "@authsim/fake-provider";
import {
  KnownError,
  StackAdminApp,
  StackClientApp,
  StackServerApp,
  type StackAdminAppOptions,
  type StackClientAppOptions,
  type StackServerAppOptions,
  type TokenStoreInit,
} from "@authsim/sdk";
import { INTERNAL_PROJECT_ID, type KnownErrorCode } from "@authsim/sdk/contract";
import type { Clock, ManualClock } from "@authsim/sdk/runtime";
import { NO_CONTROLS_REASON, type SharedClock, type Target } from "../targets.ts";

/**
 * What every suite shares: apps built for a target, unique names, a fetch recorder, and the optional powers some
 * targets have (the provider in this process, a clock shared with the SDK). Every case that needs one of those
 * skips on targets without it, naming the reason.
 */

export const PASSWORD = "password-123";

/** Why a case that moves the clock the SDK and the provider share skips. */
export const NO_SHARED_CLOCK_REASON =
  "needs a clock the SDK shares with the provider (the emulator's clock controls, mirrored for the SDK), which this target does not have";
/** Why a case that compares with fixtures/projects/dev-project.json skips. */
export const NOT_DEV_PROJECT_REASON = "compares with the dev project fixture, and this target serves another project";
/** Why a case that signs up on the `internal` project with its local-development keys skips. */
export const NO_INTERNAL_DEV_KEYS_REASON =
  "needs the internal project's local-development keys, which only an emulator seeds (this target has no controls, so it is taken to be a hosted service)";

/** A capability a case needs, and the reason it skips on a target without it. */
export type Requirement = readonly [met: boolean, reasonIfNot: string];

/** The capabilities cases ask for, read from a target when the cases are declared. */
export const needs = {
  controls: (t: Target): Requirement => [t.controls !== null, NO_CONTROLS_REASON],
  sharedClock: (t: Target): Requirement => [t.controls !== null, NO_SHARED_CLOCK_REASON],
  devProject: (t: Target): Requirement => [t.projectId === devProjectSeed.id, NOT_DEV_PROJECT_REASON],
  // The upstream local-development keys of `internal` (protocol.md §8) exist only where an emulator seeded them.
  internalDevKeys: (t: Target): Requirement => [t.controls !== null, NO_INTERNAL_DEV_KEYS_REASON],
};

/**
 * `it` when the target meets every requirement, else `it.skip` with the unmet reasons appended to the title (design
 * rule 7: a target may skip a case only with a written reason).
 */
export function itIf(...requirements: Requirement[]): (title: string, fn: () => Promise<void>) => void {
  const missing = requirements.filter(([met]) => !met).map(([, reason]) => reason);
  return (title, fn) =>
    it.skipIf(missing.length > 0)(missing.length > 0 ? `${title} (skipped: ${missing.join("; ")})` : title, fn);
}

/**
 * Unique per run (a long-lived target keeps the users of earlier runs) and per call. crypto.randomUUID is the
 * platform's randomness, not Math.random (design rule 5 is about decisions in product code; this only names things).
 */
const runId = crypto.randomUUID().slice(0, 8);
let counter = 0;
export function uniqueTag(prefix: string): string {
  counter += 1;
  return `${prefix}-${runId}-${counter}`;
}
export function uniqueEmail(prefix = "user"): string {
  return `${uniqueTag(prefix)}@conformance.example.com`;
}

/** The provider object, when the target runs it in this process (in-process, or served here over a port). */
export function providerOf(target: Target): FakeProvider | null {
  const provider = (target as Target & { provider?: FakeProvider }).provider;
  return provider ?? null;
}

/**
 * The manual clock the in-process provider is built on: apps share it by default there. Other targets' apps keep the
 * SDK's own clock unless a case passes `sharedClock(target)`.
 */
export function manualClockOf(target: Target): ManualClock | null {
  const clock = (target as Target & { clock?: ManualClock }).clock;
  return clock ?? null;
}

/**
 * The SDK's clock shared with the provider, reading the provider's time now (for a fake by URL, a mirror of its
 * emulator's clock). Cases pass it to every app they build, then move both with `advance`. Needs `needs.sharedClock`.
 */
export async function sharedClock(target: Target): Promise<SharedClock> {
  if (!target.controls) throw new Error(NO_SHARED_CLOCK_REASON);
  return target.controls.sharedClock();
}

/** One request the SDK made, as seen at its fetch. */
export interface SeenRequest {
  method: string;
  path: string;
}

/** Wraps the target's fetch so a case can count what the SDK sent (token refreshes, JWKS reads, ...). */
export function recordingFetch(target: Target): {
  fetch: typeof fetch;
  seen: SeenRequest[];
  count(path: string): number;
} {
  const seen: SeenRequest[] = [];
  const recorded: typeof fetch = async (input, init) => {
    const url = input instanceof Request ? input.url : String(input);
    seen.push({
      method: init?.method ?? (input instanceof Request ? input.method : "GET"),
      path: new URL(url).pathname,
    });
    return target.fetch(input, init);
  };
  return { fetch: recorded, seen, count: (path) => seen.filter((r) => r.path === path).length };
}

interface AppExtras {
  fetch?: typeof fetch;
  clock?: Clock;
}

function common(target: Target, extras: AppExtras) {
  const clock = extras.clock ?? manualClockOf(target) ?? undefined;
  return {
    baseUrl: target.baseUrl,
    projectId: target.projectId,
    fetch: extras.fetch ?? target.fetch,
    ...(clock ? { clock } : {}),
  };
}

export function clientApp(target: Target, options: Partial<StackClientAppOptions> & AppExtras = {}): StackClientApp {
  const { fetch: _f, clock: _c, ...rest } = options;
  return new StackClientApp({
    ...common(target, options),
    publishableClientKey: target.publishableClientKey,
    tokenStore: "memory",
    ...rest,
  });
}

export function serverApp(target: Target, options: Partial<StackServerAppOptions> & AppExtras = {}): StackServerApp {
  const { fetch: _f, clock: _c, ...rest } = options;
  return new StackServerApp({
    ...common(target, options),
    publishableClientKey: target.publishableClientKey,
    secretServerKey: target.secretServerKey,
    tokenStore: "memory",
    ...rest,
  });
}

export function adminApp(target: Target, options: Partial<StackAdminAppOptions> & AppExtras = {}): StackAdminApp {
  const { fetch: _f, clock: _c, ...rest } = options;
  return new StackAdminApp({
    ...common(target, options),
    publishableClientKey: target.publishableClientKey,
    ...(rest.projectOwnerSession ? {} : { superSecretAdminKey: target.superSecretAdminKey }),
    tokenStore: null,
    ...rest,
  });
}

/** A client app on a token store of its own (explicit tokens, a request, ...). */
export function clientWithTokens(target: Target, tokenStore: TokenStoreInit, extras: AppExtras = {}): StackClientApp {
  return clientApp(target, { ...extras, tokenStore });
}

/** Signs a fresh user up with a password and returns the app (holding the session), the email and the user id. */
export async function signedUpClient(target: Target, extras: AppExtras = {}) {
  const app = clientApp(target, extras);
  const email = uniqueEmail("signed-up");
  const result = await app.signUpWithCredential({
    email,
    password: PASSWORD,
    noVerificationCallback: true,
    noRedirect: true,
  });
  expect(result.status).toBe("ok");
  const user = await app.getUser({ or: "throw" });
  return { app, email, user, userId: user.id };
}

/** A signed-up user of the `internal` project (a dashboard user), with the app holding its session. */
export async function internalUser(target: Target, extras: AppExtras = {}) {
  const app = clientApp(target, {
    ...extras,
    projectId: INTERNAL_PROJECT_ID,
    publishableClientKey: internalProjectSeed.keys.publishable_client_key,
  });
  const result = await app.signUpWithCredential({
    email: uniqueEmail("owner"),
    password: PASSWORD,
    noVerificationCallback: true,
    noRedirect: true,
  });
  expect(result.status).toBe("ok");
  const user = await app.getUser({ or: "throw" });
  return { app, userId: user.id };
}

/** Awaits a rejection and checks it is the given known error, with the catalogue's status. */
export async function expectKnownError(
  promise: Promise<unknown>,
  code: KnownErrorCode,
  status?: number,
): Promise<KnownError> {
  const error: unknown = await promise.then(
    () => {
      throw new Error(`Expected the known error ${code}, but the call succeeded.`);
    },
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(KnownError);
  const known = error as KnownError;
  expect(known.code).toBe(code);
  if (status !== undefined) expect(known.status).toBe(status);
  return known;
}

/** An access token's `iat` and `exp`, in milliseconds (decoded, not verified): the provider's time and token lifetime. */
export function tokenTimes(accessToken: string): { issuedAtMillis: number; lifetimeMillis: number } {
  const payload = accessToken.split(".")[1] ?? "";
  const claims = JSON.parse(atob(payload.replace(/-/g, "+").replace(/_/g, "/"))) as { iat?: unknown; exp?: unknown };
  if (typeof claims.iat !== "number" || typeof claims.exp !== "number")
    throw new Error("The access token lacks iat or exp.");
  return { issuedAtMillis: claims.iat * 1000, lifetimeMillis: (claims.exp - claims.iat) * 1000 };
}

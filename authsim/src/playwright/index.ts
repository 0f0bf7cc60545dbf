/**
 * `authsim/playwright`: helpers for Playwright tests of an app that signs in through authsim (helpers.ts). The
 * top-level functions use one set of helpers made on first use from the environment `authsim exec` sets
 * (AUTHSIM_URL, STACK_PROJECT_ID, the keys); `createAuthsim({ url, … })` makes another.
 */
import type { BrowserContext, Page } from "playwright-core";
import { createAuthsim, type AuthsimHelpers, type UserSpec } from "./helpers.ts";

export {
  createAuthsim,
  type AuthsimHelpers,
  type AuthsimOptions,
  type SignedInUser,
  type UserSpec,
  type VirtualPasskey,
} from "./helpers.ts";

let fromEnv: AuthsimHelpers | null = null;
const helpers = () => (fromEnv ??= createAuthsim());

export const signIn = (context: Pick<BrowserContext, "addCookies">, user: UserSpec) => helpers().signIn(context, user);
export const nextEmail = (to: string, options?: { timeoutMs?: number }) => helpers().nextEmail(to, options);
export const otpCode = (to: string, options?: { timeoutMs?: number }) => helpers().otpCode(to, options);
export const totpCode = (user: { id: string }) => helpers().totpCode(user);
export const registerPasskey = (page: Page) => helpers().registerPasskey(page);

/**
 * Flows whose SDK calls arrive with other issues (account surfaces): the pages call them by their sdk-surface.md §6 /
 * §9 names when the app (or user) has them, and otherwise say the flow is not available. So the pages light up as the
 * SDK grows, without this package declaring calls the SDK does not make.
 */
export type ResultLike = { status: "ok" } | { status: "error"; error: Error };

export interface AppCapabilities {
  sendForgotPasswordEmail(email: string, options?: { callbackUrl?: string }): Promise<ResultLike>;
  verifyPasswordResetCode(code: string): Promise<ResultLike>;
  resetPassword(options: { code: string; password: string }): Promise<ResultLike>;
  verifyEmail(code: string): Promise<ResultLike>;
  signInWithMagicLink(code: string, options?: { noRedirect?: boolean }): Promise<ResultLike>;
}

export interface UserCapabilities {
  /** The reference SDK returns the known error, or undefined on success (not a Result). */
  updatePassword(options: { oldPassword: string; newPassword: string }): Promise<Error | undefined>;
}

function boundMethod(owner: object, name: string): unknown {
  const fn: unknown = (owner as Record<string, unknown>)[name];
  return typeof fn === "function" ? fn.bind(owner) : null;
}

/** The app's method of that name, bound, or null when this SDK version does not have it. */
export function capability<K extends keyof AppCapabilities>(app: object, name: K): AppCapabilities[K] | null {
  return boundMethod(app, name) as AppCapabilities[K] | null;
}

/** The same for a user object's methods. */
export function userCapability<K extends keyof UserCapabilities>(user: object, name: K): UserCapabilities[K] | null {
  return boundMethod(user, name) as UserCapabilities[K] | null;
}

/** A call's failure thrown (a Result's error, or a returned error), so one error display handles them all. */
export function unwrap(result: ResultLike | Error | undefined): void {
  if (result instanceof Error) throw result;
  if (result && result.status === "error") throw result.error;
}

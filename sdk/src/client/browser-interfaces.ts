import type {
  AuthenticationResponseJSON,
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
  RegistrationResponseJSON,
} from "@simplewebauthn/browser";
import type { CookieDocument } from "../session/cookie-store.ts";

/**
 * The browser pieces an app can inject (its `browser` and `webAuthn` options), as interfaces only. Below the app's
 * options (app-options.ts) and the flows that use them (browser-env.ts, passkeys.ts, mfa.ts), so the options can name
 * them without importing the flows, which read the options.
 */

export interface StorageLike {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

export interface BrowserEnvironment {
  /** The page's URL (location.href), or null where there is no page. */
  currentUrl(): string | null;
  /** history.replaceState: the OAuth callback removes code and state from the address bar (spec §5). */
  replaceUrl(url: string): void;
  /** Where the PKCE verifier cookie `stack-oauth-outer-<state>` lives (document.cookie). */
  cookies: CookieDocument | null;
  /** Where the MFA attempt code waits for the mfa page (sessionStorage). */
  sessionStorage: StorageLike | null;
  /** Flows that ignore a request say why here (console.warn). */
  warn(message: string): void;
  /** What the published SDK shows with window.alert (e.g. an invalid TOTP during the OAuth callback). */
  alert(message: string): void;
}

/** The two WebAuthn ceremonies, in their JSON forms (WebAuthn Level 3 toJSON / parse*FromJSON). */
export interface WebAuthnAdapter {
  startRegistration(options: PublicKeyCredentialCreationOptionsJSON): Promise<RegistrationResponseJSON>;
  startAuthentication(options: PublicKeyCredentialRequestOptionsJSON): Promise<AuthenticationResponseJSON>;
}

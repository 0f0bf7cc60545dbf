import type { BrowserContext, Page } from "playwright-core";
import { callerHeaders, fillPathParams, operationsById, type CallerCredentials } from "@authsim/sdk/contract";
import { controlClient, type ControlClient, type SentEmail } from "@authsim/sdk/emulator";
import { devProjectSeed } from "@authsim/fixtures";
import { refreshTokenOf, sessionCookies, type SessionTokens } from "./session-cookies.ts";

/**
 * Helpers for browser tests of an app that signs in through authsim: the session straight into the browser instead
 * of through the sign-in page, the next email's code, the current TOTP code, a passkey on Chromium's virtual
 * authenticator. Everything goes through the emulator's server API and its /__emulator controls, so each helper costs
 * a few requests; only what the page itself does takes longer.
 */
export interface AuthsimOptions {
  /** The emulator, e.g. http://127.0.0.1:8102. Default: $AUTHSIM_URL, then $STACK_API_URL (what `authsim exec` sets). */
  url?: string;
  /** Default: $STACK_PROJECT_ID, then the dev project's (fixtures/: the emulator's fixed, public keys). */
  projectId?: string;
  /** Default: $STACK_PUBLISHABLE_CLIENT_KEY (or the NEXT_PUBLIC_ one), then the dev project's. */
  publishableClientKey?: string;
  /** Default: $STACK_SECRET_SERVER_KEY, then the dev project's. */
  secretServerKey?: string;
  /**
   * Where the app runs, for the session cookies (cookies belong to a host, on every port). Default: both `localhost`
   * and `127.0.0.1`, so an app on any local port reads them.
   */
  appUrls?: readonly string[];
}

/** Who to sign in: an address, or the fields of a user made when none has it yet. */
export type UserSpec = string | { email: string; password?: string; displayName?: string };

export interface SignedInUser {
  id: string;
  email: string;
  accessToken: string;
  refreshToken: string;
}

export interface VirtualPasskey {
  /** Chromium's id for the virtual authenticator (CDP `WebAuthn.*`), which stays on the page for passkey sign-ins. */
  authenticatorId: string;
  credentialId: string;
}

export interface AuthsimHelpers {
  /** Makes the user if no user has the address (verified, through the server API), opens a session, puts it in the context's cookies. */
  signIn(context: Pick<BrowserContext, "addCookies">, user: UserSpec): Promise<SignedInUser>;
  /** The next email to `to` this helper has not answered yet, waiting for it to be sent (default 10 s). */
  nextEmail(to: string, options?: { timeoutMs?: number }): Promise<SentEmail>;
  /** The one-time sign-in code of the next email to `to`. */
  otpCode(to: string, options?: { timeoutMs?: number }): Promise<string>;
  /** The code the user's authenticator app shows now, on the emulator's clock (the user has turned TOTP on). */
  totpCode(user: { id: string }): Promise<string>;
  /**
   * Registers a passkey for the user signed in on `page` (its session cookies), with a virtual authenticator added to
   * the page through the Chrome DevTools Protocol, which then answers the page's passkey sign-ins. WebAuthn needs the
   * page on a host name: open the app at http://localhost:…, not 127.0.0.1 (an IP address cannot be a passkey's site).
   */
  registerPasskey(page: Page): Promise<VirtualPasskey>;
}

const env = (name: string): string | undefined =>
  (typeof process === "undefined" ? undefined : process.env[name]) || undefined;

export function createAuthsim(options: AuthsimOptions = {}): AuthsimHelpers {
  const url = (options.url ?? env("AUTHSIM_URL") ?? env("STACK_API_URL") ?? env("NEXT_PUBLIC_STACK_API_URL"))?.replace(
    /\/+$/,
    "",
  );
  if (!url)
    throw new Error(
      "authsim/playwright needs the emulator's URL: pass { url } or run under `authsim exec` (it sets AUTHSIM_URL).",
    );
  const projectId =
    options.projectId ?? env("STACK_PROJECT_ID") ?? env("NEXT_PUBLIC_STACK_PROJECT_ID") ?? devProjectSeed.id;
  const publishableClientKey =
    options.publishableClientKey ??
    env("STACK_PUBLISHABLE_CLIENT_KEY") ??
    env("NEXT_PUBLIC_STACK_PUBLISHABLE_CLIENT_KEY") ??
    devProjectSeed.keys.publishable_client_key;
  const secretServerKey =
    options.secretServerKey ?? env("STACK_SECRET_SERVER_KEY") ?? devProjectSeed.keys.secret_server_key;
  const appUrls = options.appUrls ?? ["http://localhost", "http://127.0.0.1"];
  const controls: ControlClient = controlClient({ baseUrl: url });
  const server: CallerCredentials = { accessType: "server", projectId, publishableClientKey, secretServerKey };
  /** Per address, the outbox place of the last email answered: the next one comes after it. */
  const lastSeq = new Map<string, number>();

  /** One operation of the contract, by id, with its path parameters filled in; answers the JSON or throws the refusal. */
  async function call<T>(
    id: string,
    caller: CallerCredentials,
    input: { params?: Record<string, string>; query?: string; body?: unknown } = {},
  ): Promise<T> {
    const operation = operationsById.get(id);
    if (!operation) throw new Error(`authsim/playwright: no operation ${id} in the contract`);
    const path = fillPathParams(operation.path, (name) => encodeURIComponent(input.params?.[name] ?? ""));
    const response = await fetch(`${url}/api/v1${path}${input.query ?? ""}`, {
      method: operation.method,
      headers: {
        ...callerHeaders(caller),
        ...(input.body === undefined ? {} : { "content-type": "application/json" }),
      },
      ...(input.body === undefined ? {} : { body: JSON.stringify(input.body) }),
    });
    const text = await response.text();
    if (!response.ok)
      throw new Error(`authsim/playwright: ${operation.method} ${path} answered ${response.status}: ${text}`);
    return JSON.parse(text) as T;
  }

  async function findOrCreateUser(
    spec: Exclude<UserSpec, string>,
  ): Promise<{ id: string; primary_email: string | null }> {
    const { items } = await call<{ items: { id: string; primary_email: string | null }[] }>("listUsers", server, {
      query: `?query=${encodeURIComponent(spec.email)}`,
    });
    const found = items.find((u) => u.primary_email?.toLowerCase() === spec.email.toLowerCase());
    if (found) return found;
    return call("createUser", server, {
      body: {
        primary_email: spec.email,
        primary_email_verified: true,
        primary_email_auth_enabled: true,
        ...(spec.password === undefined ? {} : { password: spec.password }),
        ...(spec.displayName === undefined ? {} : { display_name: spec.displayName }),
      },
    });
  }

  async function nextEmail(to: string, waitOptions: { timeoutMs?: number } = {}): Promise<SentEmail> {
    const key = to.toLowerCase();
    const afterSeq = lastSeq.get(key);
    const email = await controls.call("waitForEmail", {
      query: { to, timeoutMs: waitOptions.timeoutMs ?? 10_000, ...(afterSeq === undefined ? {} : { afterSeq }) },
    });
    lastSeq.set(key, email.seq);
    return email;
  }

  return {
    async signIn(context, userSpec) {
      const spec = typeof userSpec === "string" ? { email: userSpec } : userSpec;
      const user = await findOrCreateUser(spec);
      const session = await call<{ access_token: string; refresh_token: string }>("createSession", server, {
        body: { user_id: user.id },
      });
      const tokens: SessionTokens = { accessToken: session.access_token, refreshToken: session.refresh_token };
      // The time orders this refresh cookie among others the kit may find: the emulator's, as the session's own.
      const cookies = sessionCookies(projectId, tokens, (await controls.call("clock")).now_millis);
      await context.addCookies(
        appUrls.flatMap((appUrl) => cookies.map((c) => ({ ...c, url: appUrl, sameSite: "Lax" as const }))),
      );
      return { id: user.id, email: spec.email, ...tokens };
    },
    nextEmail,
    async otpCode(to, waitOptions) {
      const email = await nextEmail(to, waitOptions);
      if (!email.otp)
        throw new Error(`authsim/playwright: the next email to ${to} ("${email.subject}") holds no one-time code`);
      return email.otp;
    },
    async totpCode(user) {
      return (await controls.call("totp", { params: { user_id: user.id } })).code;
    },
    async registerPasskey(page) {
      const refreshToken = refreshTokenOf(projectId, await page.context().cookies(page.url()));
      if (!refreshToken)
        throw new Error(
          `authsim/playwright: no one is signed in on ${page.url()} (no session cookie of project ${projectId}); call signIn first`,
        );
      const client: CallerCredentials = { accessType: "client", projectId, publishableClientKey, refreshToken };
      const { access_token: accessToken } = await call<{ access_token: string }>("refreshCurrentSession", client);
      const user = { ...client, accessToken };
      const cdp = await page.context().newCDPSession(page);
      await cdp.send("WebAuthn.enable", { enableUI: false });
      const { authenticatorId } = await cdp.send("WebAuthn.addVirtualAuthenticator", {
        options: {
          protocol: "ctap2",
          transport: "internal",
          hasResidentKey: true,
          hasUserVerification: true,
          isUserVerified: true,
          automaticPresenceSimulation: true,
        },
      });
      const started = await call<{ options_json: { rp: Record<string, unknown> }; code: string }>(
        "initiatePasskeyRegistration",
        user,
        { body: {} },
      );
      // The relying party is the page's host (the service leaves a placeholder for the client to fill in, as the kits do).
      const credential = await page.evaluate(async (optionsJson) => {
        const publicKey = PublicKeyCredential.parseCreationOptionsFromJSON({
          ...optionsJson,
          rp: { ...optionsJson.rp, id: location.hostname },
        } as PublicKeyCredentialCreationOptionsJSON);
        const created = (await navigator.credentials.create({ publicKey })) as PublicKeyCredential | null;
        if (!created) throw new Error("navigator.credentials.create answered nothing");
        return created.toJSON() as { id: string };
      }, started.options_json);
      await call("registerPasskey", user, { body: { credential, code: started.code } });
      return { authenticatorId, credentialId: credential.id };
    },
  };
}

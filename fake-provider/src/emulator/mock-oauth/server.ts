import { Hono, type Context } from "hono";
import { framingGuard } from "../safety/framing.ts";
import { randomBase32 } from "@authsim/sdk/runtime";
import type { FakeProvider } from "../../provider.ts";
import { readCookie } from "../../api/http/cookies.ts";
import { StatusError } from "../../domain/errors/known-error.ts";
import { runOp } from "../../domain/run-op.ts";
import { accountsOfProject } from "../../domain/ops/oauth/oauth-accounts.ts";
import { flowForPage, grantInnerCode } from "../../domain/ops/oauth/oauth-idp.ts";
import type { MockIdentity } from "../../domain/store/strong-auth-records.ts";
import { cookie, fields, htmlPage, jsonAnswer, redirect } from "./answers.ts";
import { errorPage, loginPage } from "./pages.ts";
import { heldKey } from "../../domain/ops/oauth/held-oauth-tokens.ts";
import { MockOAuthTokens, simulatedRefreshErrors, type MockGrant } from "./tokens.ts";
import { refusal } from "../../domain/errors/refusals.ts";

/**
 * A mock OAuth 2.0 server on a port of its own, for the shared-keys providers, as the real service's development setup
 * has one (at port <prefix>14): authorize sends the browser here instead of to the emulator's page. It serves the
 * emulator's own OAuth flows (the `state` is the flow's inner state; the `client_id` is the provider id); the account
 * is whatever the sign-in form names — an email address, which becomes the account id and the email.
 *
 * The browser's walk (every step a 303; `_interaction` / `_interaction_resume` cookies tie the steps together):
 *
 *   GET  /auth?client_id&redirect_uri&response_type=code&scope&state&code_challenge…   → /interaction/{a}
 *   GET  /interaction/{a}                 the sign-in page (prompt "login")
 *   POST /interaction/{a}  prompt=login&login=EMAIL[&password]   (or POST /interaction/{a}/login)  → /auth/{a}
 *   GET  /auth/{a}                        → /interaction/{b} (prompt "consent")
 *   GET  /interaction/{b}                 consents at once → /auth/{b}; or POST /interaction/{b} prompt=consent
 *   GET  /auth/{b}                        → {redirect_uri}?code&state&iss   (the emulator's provider callback)
 *   GET  /interaction/{x}/abort           → {redirect_uri}?error=access_denied&state&iss
 *
 * Tokens (emulator/mock-oauth/tokens.ts): POST /token (refresh_token grant; codes are redeemed by the emulator's callback in
 * process), GET|POST /me (userinfo: `{sub}`), and the test controls POST /revoke-access-token, /revoke-refresh-token
 * and /simulate-refresh-error (JSON or form bodies, `{token, error_type}`; `token` is an access token).
 */

/** Interactions (one per prompt) live an hour by the provider's clock. */
const INTERACTION_MILLIS = 60 * 60 * 1000;

/** The scopes every sign-in here grants (OpenID and a refresh token), plus what authorize asked for on top. */
export const MOCK_OAUTH_BASE_SCOPES = ["openid", "offline_access"] as const;

interface AuthorizationRequest {
  clientId: string;
  redirectUri: string;
  state: string;
  scopes: string[];
}

interface Interaction {
  uid: string;
  prompt: "login" | "consent";
  request: AuthorizationRequest;
  /** Who signed in (set by the login prompt, carried to the consent prompt). */
  sub: string | null;
  result: "login" | "consent" | "denied" | null;
  expiresAtMillis: number;
}

export interface MockOAuthServerOptions {
  /** Where the server is reached, e.g. http://localhost:8114 (its issuer and the base of its own redirects). */
  origin: string;
  /**
   * The API base the provider callbacks are on, registered as the clients' redirect URIs. Default: the provider's
   * apiBaseUrl with its host named `localhost` (the real service's development setup names everything localhost).
   */
  callbackBaseUrl?: string;
}

export interface MockOAuthServer {
  /** Serve it on a port (the dev server's --mock-oauth-port), or call `fetch` in process. */
  app: Hono;
  fetch: (request: Request) => Response | Promise<Response>;
  tokens: MockOAuthTokens;
  origin: string;
  /** Stops sending shared-keys providers here (their authorize goes back to the emulator's page). */
  detach(): void;
}

const isLoopback = (hostname: string) =>
  hostname === "localhost" || hostname.endsWith(".localhost") || hostname === "127.0.0.1" || hostname === "[::1]";

/** The provider's API base with its host named localhost (keeping scheme and port). */
export function localhostBase(apiBaseUrl: string): string {
  const url = new URL(apiBaseUrl);
  if (url.hostname === "127.0.0.1" || url.hostname === "[::1]") url.hostname = "localhost";
  return url.origin;
}

/**
 * Builds the mock OAuth server over a provider and attaches it: from now on the provider's shared-keys OAuth providers
 * send authorize here (domain/ops/oauth/oauth-authorize.ts) and their connected accounts hand out this server's tokens.
 */
export function createMockOAuthServer(provider: FakeProvider, options: MockOAuthServerOptions): MockOAuthServer {
  const origin = new URL(options.origin).origin;
  const tokens = new MockOAuthTokens(() => provider.clock.now(), provider.random);
  const settings = {
    origin,
    tokens,
    // Read when used: the dev server learns its port (and so the API base) only once it listens.
    get callbackBaseUrl() {
      return (options.callbackBaseUrl ?? localhostBase(provider.settings.apiBaseUrl)).replace(/\/+$/, "");
    },
  };
  provider.settings.mockOAuthServer = settings;
  const interactions = new Map<string, Interaction>();
  const now = () => provider.clock.now();

  const newInteraction = (
    prompt: Interaction["prompt"],
    request: AuthorizationRequest,
    sub: string | null,
  ): Interaction => {
    for (const [uid, i] of interactions) if (i.expiresAtMillis <= now()) interactions.delete(uid);
    const interaction: Interaction = {
      uid: randomBase32(provider.random, 120),
      prompt,
      request,
      sub,
      result: null,
      expiresAtMillis: now() + INTERACTION_MILLIS,
    };
    interactions.set(interaction.uid, interaction);
    return interaction;
  };

  /** The redirect to an interaction's page, with the cookies that let the browser come back to it. */
  const toInteraction = (interaction: Interaction): Response => {
    const maxAge = Math.round(INTERACTION_MILLIS / 1000);
    return redirect(`/interaction/${interaction.uid}`, {
      body: true,
      cookies: [
        cookie("_interaction", interaction.uid, `/interaction/${interaction.uid}`, maxAge),
        cookie("_interaction_resume", interaction.uid, `/auth/${interaction.uid}`, maxAge),
      ],
    });
  };

  /** The interaction of this URL, if the browser carries its cookie (another browser's interaction is not found). */
  const interactionOf = (c: Context, cookieName: "_interaction" | "_interaction_resume"): Interaction => {
    const uid = c.req.param("uid") ?? "";
    const interaction = interactions.get(uid);
    if (!interaction || interaction.expiresAtMillis <= now() || readCookie(c.req.raw, cookieName) !== uid) {
      throw refusal("signProgressBrowserExpiredFinished");
    }
    return interaction;
  };

  const backToClient = (request: AuthorizationRequest, params: Record<string, string>): Response => {
    const url = new URL(request.redirectUri);
    for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
    url.searchParams.set("state", request.state);
    url.searchParams.set("iss", origin);
    return redirect(url.toString(), { body: true });
  };

  const app = new Hono();
  app.use("*", framingGuard);
  app.onError((error) => {
    if (error instanceof StatusError) return htmlPage(errorPage(error.message), error.status);
    throw error;
  });

  app.get("/.well-known/openid-configuration", () =>
    jsonAnswer({
      issuer: origin,
      authorization_endpoint: `${origin}/auth`,
      token_endpoint: `${origin}/token`,
      userinfo_endpoint: `${origin}/me`,
      response_types_supported: ["code"],
      grant_types_supported: ["authorization_code", "refresh_token"],
      code_challenge_methods_supported: ["S256", "plain"],
      scopes_supported: [...MOCK_OAUTH_BASE_SCOPES, "email", "profile"],
      subject_types_supported: ["public"],
      token_endpoint_auth_methods_supported: ["client_secret_basic", "client_secret_post", "none"],
    }),
  );

  app.get("/auth", async (c) => {
    const q = c.req.query();
    const clientId = q.client_id ?? "";
    if (q.response_type !== "code") throw refusal("onlyResponseTypeCodeSupported");
    let redirectUri: URL;
    try {
      redirectUri = new URL(q.redirect_uri ?? "");
    } catch {
      throw refusal("redirectUriMissingUrl");
    }
    if (
      !isLoopback(redirectUri.hostname) ||
      !redirectUri.pathname.endsWith(`/auth/oauth/callback/${encodeURIComponent(clientId)}`)
    ) {
      throw refusal("redirectUriRegisteredClientIt", redirectUri.toString(), clientId);
    }
    const state = q.state ?? "";
    // Only the emulator's own flows sign in here: the state names one, for this provider.
    flowForPage(provider.store.read, clientId, state);
    const scopes = [
      ...new Set([...MOCK_OAUTH_BASE_SCOPES, ...(q.scope ?? "").split(/\s+/).filter((s) => s.length > 0)]),
    ];
    return toInteraction(
      newInteraction("login", { clientId, redirectUri: redirectUri.toString(), state, scopes }, null),
    );
  });

  app.get("/interaction/:uid", async (c) => {
    const interaction = interactionOf(c, "_interaction");
    if (interaction.prompt === "consent") {
      // Consent is given at once: there is no one to ask.
      interaction.result = "consent";
      return redirect(`/auth/${interaction.uid}`, { body: true });
    }
    const flow = provider.store.read.oauthFlows.get(interaction.request.state);
    const project = flow ? provider.store.read.projects.get(flow.projectId) : undefined;
    const known = flow
      ? [
          ...new Set(
            accountsOfProject({ tables: provider.store.read }, flow.projectId)
              .filter((a) => a.providerConfigId === interaction.request.clientId)
              .map((a) => a.providerAccountId),
          ),
        ]
      : [];
    return htmlPage(
      loginPage({
        uid: interaction.uid,
        clientId: interaction.request.clientId,
        projectName: project?.displayName ?? null,
        known,
      }),
    );
  });

  const submit = async (c: Context, only?: "login") => {
    const interaction = interactionOf(c, "_interaction");
    const form = await fields(c.req.raw);
    const prompt = only ?? form.prompt ?? interaction.prompt;
    if (prompt !== interaction.prompt) throw refusal("idpWrongPrompt", interaction.prompt, prompt);
    if (prompt === "login") {
      const login = (form.login ?? "").trim();
      if (login === "") throw refusal("nameAccountSignLogin");
      interaction.sub = login;
    }
    interaction.result = prompt;
    return redirect(`/auth/${interaction.uid}`, { body: false });
  };
  app.post("/interaction/:uid", (c) => submit(c));
  app.post("/interaction/:uid/login", (c) => submit(c, "login"));

  app.get("/interaction/:uid/abort", (c) => {
    const interaction = interactionOf(c, "_interaction");
    interaction.result = "denied";
    return redirect(`/auth/${interaction.uid}`, { body: true });
  });

  app.get("/auth/:uid", async (c) => {
    const interaction = interactionOf(c, "_interaction_resume");
    const { request } = interaction;
    if (interaction.result === null) return toInteraction(interaction);
    interactions.delete(interaction.uid);
    if (interaction.result === "denied")
      return backToClient(request, { error: "access_denied", error_description: "The account holder denied access." });
    if (interaction.result === "login") return toInteraction(newInteraction("consent", request, interaction.sub));
    const sub = interaction.sub!;
    const identity: MockIdentity = {
      accountId: sub,
      email: sub,
      emailVerified: true,
      displayName: null,
      scopes: request.scopes,
    };
    const { code, projectId } = await runOp(provider, (ctx) => {
      const flow = flowForPage(ctx.tables, request.clientId, request.state);
      return { code: grantInnerCode(ctx, flow, identity), projectId: flow.projectId };
    });
    // The emulator, as the relying party, redeems the code in process (domain/ops/oauth/oauth-callback.ts reads the flow): it holds
    // the tokens this consent issued from now on, for its connected accounts.
    tokens.hold(heldKey(projectId, request.clientId, sub), tokens.issue(request.clientId, sub, request.scopes));
    return backToClient(request, { code });
  });

  app.post("/token", async (c) => {
    const form = await fields(c.req.raw);
    if (form.grant_type === "refresh_token") {
      const answer = tokens.refresh(form.refresh_token ?? "", form.client_id);
      if (!answer.ok) return jsonAnswer({ error: answer.error, error_description: answer.description }, 400);
      return jsonAnswer({
        access_token: answer.accessToken,
        expires_in: Math.round((answer.expiresAtMillis - now()) / 1000),
        scope: answer.scopes.join(" "),
        token_type: "Bearer",
      });
    }
    return jsonAnswer(
      {
        error: "unsupported_grant_type",
        error_description: "Only refresh_token: the emulator redeems its authorization codes itself.",
      },
      400,
    );
  });

  const userinfo = (c: Context) => {
    const token = /^Bearer\s+(.+)$/i.exec(c.req.header("authorization") ?? "")?.[1]?.trim() ?? "";
    const grant = tokens.grantOfAccessToken(token);
    if (!grant) {
      return jsonAnswer(
        { error: "invalid_token", error_description: "The access token is invalid, expired or revoked." },
        401,
        {
          "www-authenticate": `Bearer realm="${origin}", error="invalid_token"`,
        },
      );
    }
    return jsonAnswer({ sub: grant.sub, ...(grant.scopes.includes("email") ? { email: grant.sub } : {}) });
  };
  app.get("/me", userinfo);
  app.post("/me", userinfo);

  /** The test controls take an access token; a missing or unknown one is an OAuth-style 400. */
  const withGrantOf = async (c: Context, act: (grant: MockGrant, form: Record<string, string>) => Response) => {
    const form = await fields(c.req.raw);
    if (!form.token)
      return jsonAnswer({ error: "invalid_request", error_description: "The token parameter is missing." }, 400);
    const grant = tokens.grantOfAnyAccessToken(form.token);
    if (!grant) return jsonAnswer({ error: "invalid_token", error_description: "No such access token." }, 400);
    return act(grant, form);
  };

  // Revoking an unknown token succeeds, as revocation does (RFC 7009 §2.2).
  app.post("/revoke-access-token", async (c) => {
    const form = await fields(c.req.raw);
    if (!form.token)
      return jsonAnswer({ error: "invalid_request", error_description: "The token parameter is missing." }, 400);
    tokens.revokeAccessToken(form.token);
    return jsonAnswer({ success: true, message: "Access token has been revoked" });
  });
  app.post("/revoke-refresh-token", (c) =>
    withGrantOf(c, (grant) => {
      tokens.revokeGrant(grant);
      return jsonAnswer({ success: true, message: "Grant and associated refresh tokens have been revoked" });
    }),
  );
  app.post("/simulate-refresh-error", (c) =>
    withGrantOf(c, (grant, form) => {
      const type = form.error_type ?? "";
      if (!(type in simulatedRefreshErrors)) {
        return jsonAnswer(
          {
            error: "invalid_request",
            error_description: `error_type must be one of ${Object.keys(simulatedRefreshErrors).join(", ")}.`,
          },
          400,
        );
      }
      grant.nextRefreshError = type;
      return jsonAnswer({ success: true, message: `The next refresh of this grant answers ${type}.` });
    }),
  );

  app.notFound(() =>
    jsonAnswer({ error: "not_found", error_description: "The mock OAuth server has no such endpoint." }, 404),
  );

  return {
    app,
    fetch: (request) => app.fetch(request),
    tokens,
    origin,
    detach: () => {
      if (provider.settings.mockOAuthServer === settings) delete provider.settings.mockOAuthServer;
    },
  };
}

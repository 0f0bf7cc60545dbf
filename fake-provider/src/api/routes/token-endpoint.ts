import { constants, type RequestBody } from "@authsim/sdk/contract";
import { json } from "../http/respond.ts";
import { refreshAccessToken } from "../../domain/ops/sign-in/sessions.ts";
import { exchangeAuthorizationCode, OAuthGrantError, tokenEndpointClient } from "../../domain/ops/oauth/oauth-token.ts";
import type { OpContext } from "../../domain/ops/context.ts";
import type { ProjectRecord } from "../../domain/store/records.ts";
import type { AnswerOf, RouteFor, RouteResult } from "./define.ts";

const noStore = { "cache-control": "no-store", pragma: "no-cache" };
const oauthError = (error: string, description: string, status = 400) =>
  json({ error, error_description: description }, status, noStore);

/**
 * POST /auth/oauth/token (protocol.md §4.4): a standard OAuth token endpoint with client_secret_post authentication.
 * The client is the project (client_id = project id, optionally "#branch"); its secret a publishable key or the
 * public-client sentinel. Grants: refresh_token, and authorization_code (OAuth sign-in, domain/ops/oauth/oauth-token.ts).
 */
export const tokenEndpoint: RouteFor<"oauthToken"> = {
  handler: async ({ body, ctx }) => {
    const project = tokenEndpointClient(ctx, body);
    if (body.grant_type === "authorization_code") return codeGrant(ctx, project, body);
    if (body.grant_type !== "refresh_token")
      return oauthError("unsupported_grant_type", `Grant type ${body.grant_type} is not supported by this endpoint.`);
    if (!body.refresh_token) return oauthError("invalid_request", "Missing parameter: `refresh_token`");
    const tokens = await refreshAccessToken(ctx, project.id, body.refresh_token);
    return {
      status: 200,
      body: {
        access_token: tokens.accessToken,
        token_type: "Bearer",
        expires_in: ctx.settings.accessTokenLifetimeSeconds,
        scope: constants.oauthScope,
        refresh_token: tokens.refreshToken,
      },
      headers: noStore,
    };
  },
};

/** The code exchange; its OAuth-style refusals (PKCE, missing parameters) answer in the OAuth error shape. */
async function codeGrant(
  ctx: OpContext,
  project: ProjectRecord,
  body: RequestBody<"oauthToken">,
): Promise<RouteResult<AnswerOf<"oauthToken">>> {
  try {
    const tokens = await exchangeAuthorizationCode(ctx, project, {
      ...body,
      grant_type: "authorization_code",
      client_id: body.client_id ?? "",
    });
    return { status: 200, body: tokens, headers: noStore };
  } catch (error) {
    if (error instanceof OAuthGrantError) return oauthError(error.error, error.description, error.status);
    throw error;
  }
}

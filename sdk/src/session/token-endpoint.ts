import { tokenResponse } from "../contract/areas/sessions.ts";
import { PUBLIC_CLIENT_SENTINEL } from "../contract/headers.ts";
import type { Transport } from "../transport/transport.ts";
import type { Refresher } from "./session.ts";
import { sendBare } from "../transport/operation-call.ts";

/**
 * The refresh grant at POST /api/v1/auth/oauth/token (protocol.md §4.4): form-encoded, client_secret_post, and none of
 * the x-stack headers. An app without a publishable key authenticates with the public-client sentinel.
 */
export function createRefresher(transport: Transport, publishableClientKey?: string): Refresher {
  return async (refreshToken) => {
    const form = new URLSearchParams({
      grant_type: "refresh_token",
      refresh_token: refreshToken,
      client_id: transport.projectId,
      client_secret: publishableClientKey || PUBLIC_CLIENT_SENTINEL,
    });
    const response = await sendBare(transport, "oauthToken", {
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: form.toString(),
    });
    const parsed = transport.parseJson(response, tokenResponse);
    return { accessToken: parsed.access_token, refreshToken: parsed.refresh_token ?? null };
  };
}

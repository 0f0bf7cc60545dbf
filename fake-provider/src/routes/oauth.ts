import { z } from "zod";
import { constants, oauthAuthorizeQuery, oauthCallbackParams, oauthInnerStateCookie } from "@authsim/sdk/contract";
import { cookieHeader, readCookie } from "../http/cookies.ts";
import { json } from "../http/respond.ts";
import { authorize } from "../ops/oauth-authorize.ts";
import { oauthCallback } from "../ops/oauth-callback.ts";
import { route, type AnyRouteSpec } from "./define.ts";

/**
 * OAuth in the browser (protocol.md §7.5): authorize sends the browser to the mock identity provider (307, or 200
 * `{location}` in JSON mode) and sets the inner-state cookie; the callback turns the provider's answer into an
 * authorization code for the app's redirect_uri.
 */

const callbackParams = z.strictObject({ provider_id: z.string() });

function callbackHandler(source: "query" | "body"): AnyRouteSpec {
  return route({
    params: callbackParams,
    query: source === "query" ? oauthCallbackParams : z.looseObject({}),
    body: source === "body" ? z.union([z.undefined(), oauthCallbackParams]) : z.unknown(),
    handler: ({ ctx, params, query, body, request }) => {
      const answer = (source === "query" ? query : (body ?? {})) as z.output<typeof oauthCallbackParams>;
      const location = oauthCallback(ctx, params.provider_id, answer, (innerState) => readCookie(request, oauthInnerStateCookie(innerState)) === "true");
      const headers = new Headers({ location });
      // The inner cookie has done its job (one callback per flow).
      if (answer.state) headers.append("set-cookie", cookieHeader(request, oauthInnerStateCookie(answer.state), "", 0));
      // A form POST (response_mode=form_post providers) must become a GET at the app: 303; a GET stays one: 307.
      return new Response(null, { status: source === "body" ? 303 : 307, headers });
    },
  });
}

export const oauthRoutes: Record<string, AnyRouteSpec> = {
  oauthAuthorize: route({
    params: z.strictObject({ provider_id: z.string() }),
    query: oauthAuthorizeQuery,
    handler: async ({ ctx, params, query, request }) => {
      const { flow, location } = await authorize(ctx, params.provider_id, query);
      const cookie = cookieHeader(request, oauthInnerStateCookie(flow.innerState), "true", constants.oauthOuterStateCookieMaxAgeSeconds);
      const mode = query.response_mode ?? query.stack_response_mode ?? query.hexclave_response_mode ?? "redirect";
      if (mode === "json") return json({ location }, 200, { "set-cookie": cookie });
      return new Response(null, { status: 307, headers: { location, "set-cookie": cookie } });
    },
  }),
  oauthCallbackGet: callbackHandler("query"),
  oauthCallbackPost: callbackHandler("body"),
};

import { z } from "zod";
import { constants, oauthCallbackParams, oauthInnerStateCookie } from "@authsim/sdk/contract";
import { stackHeader } from "../auth/headers.ts";
import { deletedCookieHeader, innerStateCookieHeader, readCookie } from "../http/cookies.ts";
import { json } from "../http/respond.ts";
import { appleNativeSignIn } from "../../domain/ops/oauth/oauth-apple-native.ts";
import { authorize } from "../../domain/ops/oauth/oauth-authorize.ts";
import { oauthCallback } from "../../domain/ops/oauth/oauth-callback.ts";
import { crossDomainAuthorize } from "../../domain/ops/oauth/oauth-cross-domain.ts";
import { ok, type RouteFor, type RouteTable } from "./define.ts";

/**
 * OAuth in the browser (protocol.md §7.5): authorize sends the browser to the mock identity provider (307 setting the
 * inner-state cookie, or 200 `{location}` in JSON mode, without it); the callback turns the provider's answer into an
 * authorization code for the app's redirect_uri (303), or a refusal to the error URL (307).
 */

function callbackHandler(source: "query" | "body"): RouteFor<"oauthCallbackGet" | "oauthCallbackPost"> {
  return {
    handler: async ({ ctx, params, query, body, request }) => {
      const answer = (source === "query" ? query : (body ?? {})) as z.output<typeof oauthCallbackParams>;
      const { location, headers: extra } = await oauthCallback(ctx, params.provider_id, answer, {
        hasInnerCookie: (innerState) => readCookie(request, oauthInnerStateCookie(innerState)) === "true",
        spentInnerCookie: (innerState) => deletedCookieHeader(oauthInnerStateCookie(innerState)),
      });
      const headers = new Headers({ location, "content-type": "application/json; charset=utf-8" });
      for (const [name, value] of extra) headers.append(name, value);
      // Upstream answers its OAuth library's 302 as a 303 with the library's empty JSON body (GET or form POST alike);
      // a refusal to the error URL is a 307.
      return new Response("{}", { status: 303, headers });
    },
  };
}

export const oauthRoutes: RouteTable = {
  oauthAuthorize: {
    handler: async ({ ctx, params, query, request }) => {
      const { flow, location } = await authorize(ctx, params.provider_id, query);
      // JSON mode (the SDKs' fetch) sets no cookie: upstream relies on PKCE there (flow.jsonMode, see the callback).
      if (flow.jsonMode) return json({ location }, 200);
      const cookie = innerStateCookieHeader(
        request,
        oauthInnerStateCookie(flow.innerState),
        constants.oauthOuterStateCookieMaxAgeSeconds,
        ctx.now,
      );
      return new Response(null, { status: 307, headers: { location, "set-cookie": cookie } });
    },
  },
  oauthCallbackGet: callbackHandler("query"),
  oauthCallbackPost: callbackHandler("body"),
  appleNativeSignIn: {
    handler: ({ auth }) => appleNativeSignIn(auth.project),
  },
  crossDomainAuthorize: {
    handler: ({ ctx, auth, body, request }) =>
      ok(
        crossDomainAuthorize(
          ctx,
          auth,
          {
            refreshToken: stackHeader(request.headers, "refreshToken"),
            publishableClientKey: stackHeader(request.headers, "publishableClientKey") ?? undefined,
          },
          body,
        ),
      ),
  },
};

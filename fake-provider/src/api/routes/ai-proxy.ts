import { proxyGet, proxyPost, type ProxyAnswer } from "../../domain/ops/ai/ai-proxy.ts";
import { rawBodyOf } from "../http/parse.ts";
import type { RouteTable } from "./define.ts";

/** The AI proxy (domain/ops/ai/ai-proxy.ts): the provider's answer with its status, not cached, as upstream passes it on. */
function answer({ status, body, stream }: ProxyAnswer): Response {
  const type = stream ? "text/event-stream" : "application/json";
  return new Response(stream ? (body as string) : JSON.stringify(body), {
    status,
    headers: { "content-type": type, "cache-control": "no-cache" },
  });
}

export const aiProxyRoutes: RouteTable = {
  aiProxyRootGet: { handler: () => answer(proxyGet("")) },
  aiProxyRootPost: { handler: ({ ctx, request }) => answer(proxyPost(ctx, "", rawBodyOf(request) ?? "")) },
  aiProxyGet: { handler: ({ params }) => answer(proxyGet(params.path)) },
  aiProxyPost: { handler: ({ ctx, params, request }) => answer(proxyPost(ctx, params.path, rawBodyOf(request) ?? "")) },
};

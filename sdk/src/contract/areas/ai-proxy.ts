import { z } from "zod";
import { defineOperations, json } from "../define-operations.ts";

/**
 * The AI proxy (upstream: a pass-through to its model provider, OpenRouter, with the real service's key; no
 * authentication). Everything after /integrations/ai-proxy is the provider's path: `v1/messages` (Anthropic's shape),
 * `v1/chat/completions` (OpenAI's), `v1/models`. ops/ai/ai-proxy.ts answers them from the offline model.
 */

export const aiProxyParams = z.object({ path: z.string() });
/** Any body: the proxy reads the exact bytes (a JSON object, checked by the operation). */
export const aiProxyBody = z.unknown();
/** The provider's answer, passed on as it is. */
export const aiProxyResponse = z.unknown();

const answers = [
  json(aiProxyResponse, 200, "The model provider's answer (from the offline model), or its error with its status"),
];

/** The operations of this area: what each accepts and answers, who may call it, the known errors its own code may answer. */
export const aiProxyOperations = defineOperations("ai-proxy", {
  aiProxyRootGet: { method: "GET", path: "/integrations/ai-proxy", access: "none", errors: [], responses: answers },
  aiProxyRootPost: {
    method: "POST",
    path: "/integrations/ai-proxy",
    access: "none",
    body: aiProxyBody,
    errors: [],
    responses: answers,
  },
  aiProxyGet: {
    method: "GET",
    path: "/integrations/ai-proxy/:path{.+}",
    access: "none",
    params: aiProxyParams,
    query: z.looseObject({}),
    errors: [],
    responses: answers,
  },
  aiProxyPost: {
    method: "POST",
    path: "/integrations/ai-proxy/:path{.+}",
    access: "none",
    params: aiProxyParams,
    query: z.looseObject({}),
    body: aiProxyBody,
    errors: [],
    responses: answers,
  },
});

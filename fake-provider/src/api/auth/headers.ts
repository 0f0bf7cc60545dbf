import { headerNames, rebranded, type HeaderKey } from "@authsim/sdk/contract";

/**
 * Reads a request header in either family: the published SDK sends x-hexclave-*, ours and older SDKs x-stack-*
 * (protocol.md §0). Empty values count as absent (§2.3: "Empty-string key headers count as absent").
 */
export function stackHeader(headers: Headers, key: HeaderKey): string | null {
  const legacy = headerNames[key];
  const value = headers.get(legacy) ?? headers.get(rebranded(legacy));
  return value === null || value === "" ? null : value;
}

export function hasStackHeader(headers: Headers, key: HeaderKey): boolean {
  const legacy = headerNames[key];
  return headers.has(legacy) || headers.has(rebranded(legacy));
}

import { headerNames, rebranded, type HeaderKey } from "@authsim/sdk/contract";

/** Each header's two names, legacy first, worked out once: every request reads a dozen of them. */
const namesOf = Object.fromEntries(
  Object.entries(headerNames).map(([key, legacy]) => [key, [legacy, rebranded(legacy)] as const]),
) as Record<HeaderKey, readonly [legacy: string, rebranded: string]>;

/**
 * Reads a request header in either family: the published SDK sends x-hexclave-*, ours and older SDKs x-stack-*
 * (protocol.md §0). Empty values count as absent (§2.3: "Empty-string key headers count as absent").
 */
export function stackHeader(headers: Headers, key: HeaderKey): string | null {
  const [legacy, rebrandedName] = namesOf[key];
  const value = headers.get(legacy) ?? headers.get(rebrandedName);
  return value === null || value === "" ? null : value;
}

export function hasStackHeader(headers: Headers, key: HeaderKey): boolean {
  const [legacy, rebrandedName] = namesOf[key];
  return headers.has(legacy) || headers.has(rebrandedName);
}

import { headerFamilyOf, headerNames, rebranded, type HeaderFamily, type HeaderKey } from "@authsim/sdk/contract";

/** The header family a request used, so its answer uses the same one (protocol.md §0; contract headers.ts). */
export function familyOf(request: Request): HeaderFamily {
  return headerFamilyOf(request.headers.keys());
}

/** A response header of either family (an answer carries exactly one), for readers such as the request log. */
export function answerHeader(headers: Headers, key: HeaderKey): string | null {
  return headers.get(headerNames[key]) ?? headers.get(rebranded(headerNames[key]));
}

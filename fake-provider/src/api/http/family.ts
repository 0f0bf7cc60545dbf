import { headerFamilyOf, headerNames, rebranded, type HeaderFamily, type HeaderKey } from "@authsim/sdk/contract";

/**
 * The header family a request used, so its answer uses the same one (protocol.md §0; contract headers.ts). Worked out
 * once per request: listing a request's header names sorts them, and the pipeline asks several times.
 */
const families = new WeakMap<Request, HeaderFamily>();
export function familyOf(request: Request): HeaderFamily {
  let family = families.get(request);
  if (family === undefined) {
    family = headerFamilyOf(request.headers.keys());
    families.set(request, family);
  }
  return family;
}

/** A response header of either family (an answer carries exactly one), for readers such as the request log. */
export function answerHeader(headers: Headers, key: HeaderKey): string | null {
  return headers.get(headerNames[key]) ?? headers.get(rebranded(headerNames[key]));
}

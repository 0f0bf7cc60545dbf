/**
 * The parsed URL of a request, parsed once: the host guard, the request log, the fault rules and the route pipeline
 * each need its path or query, and parsing it four times was a measurable share of a cheap request. Callers only read
 * it (a URL is mutable, so nothing may change the shared one).
 */
const urls = new WeakMap<Request, URL>();

export function urlOf(request: Request): URL {
  let url = urls.get(request);
  if (!url) {
    url = new URL(request.url);
    urls.set(request, url);
  }
  return url;
}

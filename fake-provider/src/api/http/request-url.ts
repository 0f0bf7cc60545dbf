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

/**
 * What answers on a side port of the real development setup (Svix's <prefix>13, storage's <prefix>21): the provider's
 * app, with the port's paths served from under `prefix` (a path `/x` on the port is `<prefix>/x` in the app).
 */
export function fetchUnderPrefix(
  prefix: string,
  appFetch: (request: Request) => Response | Promise<Response>,
): (request: Request) => Response | Promise<Response> {
  return (request) => {
    const url = new URL(request.url);
    url.pathname = `${prefix}${url.pathname}`;
    return appFetch(new Request(url, request));
  };
}

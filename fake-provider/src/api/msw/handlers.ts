import { http, HttpResponse, type HttpHandler } from "msw";
import { createFakeProvider, type FakeProvider, type FakeProviderOptions } from "../../app.ts";
import { DroppedConnection } from "../../emulator/faults/middleware.ts";

/**
 * The emulator as msw request handlers: an app's own tests (msw/node's setupServer in Node, jsdom or happy-dom; msw/browser's
 * setupWorker in a page) talk to an in-memory provider at the URL the app is configured with, with no port. Every request
 * to that origin goes to the provider's web-standard fetch, so the API, the control endpoints and fault rules all apply.
 */
export interface FakeProviderHandlersOptions {
  /** The provider URL the app's SDK is configured with (its `baseUrl`), without /api/v1, e.g. https://api.stack-auth.test. */
  baseUrl: string;
  /** The emulator to answer with; when absent a fresh one is made from `providerOptions`. */
  provider?: FakeProvider;
  /** Options of the provider made when none is given (its apiBaseUrl is `baseUrl`). */
  providerOptions?: Omit<FakeProviderOptions, "apiBaseUrl">;
}

/** The handlers, spread into setupServer / setupWorker, and the provider behind them (outbox, faults, clock). */
export type FakeProviderHandlers = HttpHandler[] & { readonly provider: FakeProvider };

export function fakeProviderHandlers(options: FakeProviderHandlersOptions): FakeProviderHandlers {
  const origin = providerOrigin(options.baseUrl);
  const provider = options.provider ?? createFakeProvider({ ...options.providerOptions, apiBaseUrl: origin });
  // Token issuers (iss = <apiBaseUrl>/api/v1/projects/<id>) must name the URL the app calls, as the real service's do.
  provider.settings.apiBaseUrl = origin;
  const forward = async ({ request }: { request: Request }): Promise<Response> => {
    try {
      return await provider.fetch(request);
    } catch (error) {
      // A `drop` fault rule: the app must see a failed exchange (fetch rejects with a TypeError), not an answer.
      if (error instanceof DroppedConnection) return HttpResponse.error();
      throw error;
    }
  };
  // `*` matches the empty rest too, so the origin's root (/) is covered as well.
  const handlers = [http.all(`${origin}/*`, forward)];
  return Object.assign(handlers, { provider });
}

/** The base URL without a trailing slash; a URL naming /api/v1 is refused, since the SDK's baseUrl never does. */
function providerOrigin(baseUrl: string): string {
  const url = new URL(baseUrl);
  const trimmed = `${url.origin}${url.pathname}`.replace(/\/+$/, "");
  if (/\/api\/v1$/.test(trimmed))
    throw new TypeError(`baseUrl is the provider's URL without /api/v1 (as an SDK's baseUrl), not ${baseUrl}.`);
  return trimmed;
}

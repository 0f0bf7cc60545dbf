import { z } from "zod";
import { uuid } from "../runtime/ids.ts";
import { isExplicitTokens } from "../session/token-store.ts";
import { AppConfigError } from "./app-config-error.ts";
import type { AppContext } from "./app-context.ts";
import type { StackClientAppOptions } from "./app-options.ts";

/**
 * The client app's JSON form (spec §5; sdk-surface.md §1, §6): server code hands its app to the browser as JSON, and
 * the browser rebuilds a client app from it. The JSON carries a unique identifier, so that rebuilding it twice in one
 * process (a server render, then hydration) gives the same app rather than a second one with its own session. Rules:
 *
 * - an identifier belongs to one app of the process (UNIQUE_IDENTIFIER_TAKEN);
 * - JSON naming an existing app must be that app's: same project (PROJECT_ID_MISMATCH), same configuration
 *   (APP_JSON_MISMATCH); matching JSON gives back the existing app;
 * - only JSON-able options travel (APP_NOT_SERIALIZABLE otherwise), and never a server or admin key: a server app's
 *   JSON is its client configuration.
 */

/** The token stores a browser can rebuild from JSON (sdk-surface.md §3): not a custom store, not a request. */
const tokenStoreJson = z.union([
  z.literal("memory"),
  z.literal("cookie"),
  z.null(),
  z.strictObject({ accessToken: z.string().nullable(), refreshToken: z.string().nullable() }),
]);

export const clientAppJson = z.strictObject({
  uniqueIdentifier: z.string().min(1),
  projectId: z.string().min(1),
  baseUrl: z.string().optional(),
  publishableClientKey: z.string().optional(),
  tokenStore: tokenStoreJson,
  /** Handler URL options by key (urls.ts); a record, so keys added to HandlerUrlOptions later still travel. */
  urls: z.record(z.string(), z.string()).optional(),
  /** Only the string forms: a router's navigate function cannot be written as JSON. */
  redirectMethod: z.enum(["window", "none"]).optional(),
  extraRequestHeaders: z.record(z.string(), z.string()).optional(),
});
export type ClientAppJson = z.infer<typeof clientAppJson>;

/** What the browser supplies itself when rebuilding an app (runtime pieces never travel in JSON). */
export type ClientAppPlatform = Omit<Partial<StackClientAppOptions>, keyof ClientAppJson>;

interface Registered<App> {
  app: App;
  /** The app's JSON form now (computed, so an app made by its constructor is compared by its real options). */
  describe(): ClientAppJson;
}

/**
 * The apps of this process that have an identifier (client-app.ts holds the one registry). Kept for the process's
 * life, as upstream's: an identifier that left the process as JSON may come back at any time and must find the same
 * app. Generic in the app so this module needs nothing of the client app, which imports it.
 */
export class AppRegistry<App> {
  private readonly byIdentifier = new Map<string, Registered<App>>();

  /** Gives `id` to `app`, or refuses: an identifier may be used only once (spec §5). */
  claim(id: string, app: App, describe: () => ClientAppJson): string {
    if (this.byIdentifier.has(id)) {
      throw new AppConfigError(
        "UNIQUE_IDENTIFIER_TAKEN",
        `A Stack client app with the unique identifier "${id}" already exists in this process; a unique identifier may be used by one app only (spec §5).`,
      );
    }
    this.byIdentifier.set(id, { app, describe });
    return id;
  }

  get(id: string): Registered<App> | undefined {
    return this.byIdentifier.get(id);
  }
}

/** A fresh identifier from the app's random source (design rule 5: no ambient randomness). */
export const newIdentifier = (ctx: AppContext): string => uuid(ctx.transport.random);

function notSerializable(what: string): never {
  throw new AppConfigError("APP_NOT_SERIALIZABLE", `Cannot write this app as JSON: ${what}.`);
}

/** `app[stackAppInternalsSymbol].toClientJson()`: the options a browser needs to rebuild this app, and its identifier. */
export function toClientJson(ctx: AppContext, uniqueIdentifier: string): ClientAppJson {
  const o = ctx.appOptions;
  const store = o.tokenStore;
  if (!(
    store === null ||
    store === "memory" ||
    store === "cookie" ||
    (isExplicitTokens(store) && Object.keys(store).length === 2)
  )) {
    notSerializable(
      'its tokenStore is a custom store or a request (only "memory", "cookie", null or an {accessToken, refreshToken} pair can be)',
    );
  }
  if (o.redirectMethod !== undefined && typeof o.redirectMethod !== "string")
    notSerializable("its redirectMethod is a function of the app's router, not a string");
  const tokenStore = isExplicitTokens(store)
    ? { accessToken: store.accessToken, refreshToken: store.refreshToken }
    : store;
  // The option as given (undefined when defaulted), so the browser picks its own default ("window" there).
  return {
    uniqueIdentifier,
    projectId: ctx.projectId,
    ...(o.baseUrl !== undefined ? { baseUrl: o.baseUrl } : {}),
    ...(ctx.publishableClientKey !== undefined ? { publishableClientKey: ctx.publishableClientKey } : {}),
    tokenStore,
    ...(o.urls !== undefined
      ? { urls: Object.fromEntries(Object.entries(o.urls).filter(([, v]) => typeof v === "string")) }
      : {}),
    ...(o.redirectMethod !== undefined ? { redirectMethod: o.redirectMethod } : {}),
    ...(o.extraRequestHeaders !== undefined ? { extraRequestHeaders: { ...o.extraRequestHeaders } } : {}),
  };
}

/** JSON with its object keys sorted, so two forms compare equal whatever order they were written in. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v !== null && typeof v === "object" && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  );
}

function differingKeys(a: ClientAppJson, b: ClientAppJson): string[] {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]) as Set<keyof ClientAppJson>;
  return [...keys].filter((k) => canonical(a[k]) !== canonical(b[k])).sort();
}

/**
 * `StackClientApp[stackAppInternalsSymbol].fromClientJson(json)`: the existing app with the JSON's identifier when the
 * JSON matches it, else a new client app claiming the identifier. `construct` is the client app's constructor (passed
 * in: this module is imported by it).
 */
export function fromClientJson<App>(
  registry: AppRegistry<App>,
  input: unknown,
  platform: ClientAppPlatform,
  construct: (options: StackClientAppOptions) => App,
): App {
  const parsed = clientAppJson.safeParse(input);
  if (!parsed.success) {
    const problems = parsed.error.issues
      .map((i) => `${i.path.map(String).join(".") || "(root)"}: ${i.message}`)
      .join("; ");
    throw new AppConfigError("INVALID_APP_JSON", `Not the JSON form of a client app: ${problems}.`);
  }
  const json = parsed.data;
  const existing = registry.get(json.uniqueIdentifier);
  if (existing) {
    const current = existing.describe();
    if (current.projectId !== json.projectId) {
      throw new AppConfigError(
        "PROJECT_ID_MISMATCH",
        `The project ID of the provided app JSON (${json.projectId}) does not match the project ID of the existing client app with the same unique identifier (${current.projectId}).`,
      );
    }
    const differs = differingKeys(current, json);
    if (differs.length > 0) {
      throw new AppConfigError(
        "APP_JSON_MISMATCH",
        `The provided app JSON does not match the configuration of the existing client app with the same unique identifier (it differs in ${differs.join(", ")}).`,
      );
    }
    return existing.app;
  }
  const { uniqueIdentifier, urls, ...rest } = json;
  return construct({ ...platform, ...rest, ...(urls !== undefined ? { urls } : {}), uniqueIdentifier });
}

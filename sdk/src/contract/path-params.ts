/**
 * Path parameters in contract paths, defined once: `:name` (an identifier, camelCase included, as the AI
 * conversations' `:conversationId`), optionally followed by a Hono pattern in braces (the AI proxy's `:path{.+}`,
 * which spans several segments). The SDK, the emulator's OpenAPI document, the control client, the Playwright
 * helpers and the fuzzers all read paths through these, so none misses a parameter another one sees.
 */
const PATH_PARAM = /:([A-Za-z_][A-Za-z0-9_]*)(?:\{[^}]*\})?/g;

/** The names of a path's parameters, in order. */
export function pathParamNames(path: string): string[] {
  return [...path.matchAll(PATH_PARAM)].map((m) => m[1]!);
}

/** The path with each parameter (its pattern included) replaced by `valueOf(name, index)`, used as given. */
export function fillPathParams(path: string, valueOf: (name: string, index: number) => string): string {
  let index = 0;
  return path.replace(PATH_PARAM, (_whole, name: string) => valueOf(name, index++));
}

/**
 * The key of the apps' internal members (sdk-surface.md §1, §6: `app[stackAppInternalsSymbol].toClientJson()`,
 * `StackClientApp[stackAppInternalsSymbol].fromClientJson(json)`). The same registered symbol as the published kit's,
 * so code written against it finds ours under the same key.
 */
export const stackAppInternalsSymbol: unique symbol = Symbol.for(
  "StackAuth--DO-NOT-USE-OR-YOU-WILL-BE-FIRED--StackAppInternals",
);

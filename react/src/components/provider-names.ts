/**
 * How a button names an OAuth provider: the ids are the provider config ids of spec §3 (sdk-surface.md §2 lists the
 * standard ones); any other id (e.g. a fixture's "mock") shows with its first letter capitalised. The names live with
 * the providers' marks in the SDK's runtime, which the emulator's own pages use too.
 */
export { providerName } from "@authsim/sdk/runtime";

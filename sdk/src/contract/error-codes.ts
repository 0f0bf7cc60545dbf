import type { catalogue } from "./catalogue.ts";

/**
 * The known-error codes as types, from the generated catalogue. Below errors.ts, so the modules errors.ts reads (the
 * x-stack-* wording) can name codes without importing it.
 */
type Entry = (typeof catalogue)[number];

export type KnownErrorCode = Entry["code"];
/** Codes that are only ancestors (never sent on the wire). */
export type AbstractKnownErrorCode = Extract<Entry, { abstract: true }>["code"];
export type ConcreteKnownErrorCode = Exclude<KnownErrorCode, AbstractKnownErrorCode>;

/**
 * The rules of spec §5 about apps built from JSON and apps of owned projects, broken (not known errors of the API: they
 * are decided in the SDK, before any request). One class, discriminated by `code` (design rule 2).
 */
export type AppConfigErrorCode =
  /** The JSON is not a client app's JSON form (wrong shape, or fields this SDK does not have). */
  | "INVALID_APP_JSON"
  /** The app's options cannot be written as JSON (a custom token store, a function as redirect method…). */
  | "APP_NOT_SERIALIZABLE"
  /** Another app of this process already has the unique identifier: an identifier may be used only once. */
  | "UNIQUE_IDENTIFIER_TAKEN"
  /** The JSON names an existing app by its identifier, but for another project. */
  | "PROJECT_ID_MISMATCH"
  /** The JSON names an existing app by its identifier, but its configuration differs. */
  | "APP_JSON_MISMATCH"
  /** An owned project's admin app has a token store (it must authenticate with the owner's session only). */
  | "OWNED_APP_HAS_TOKEN_STORE";

export class AppConfigError extends Error {
  override readonly name = "AppConfigError";
  constructor(
    readonly code: AppConfigErrorCode,
    message: string,
  ) {
    super(message);
  }
}

import type { AccessTokenClaims, AccessType } from "@authsim/sdk/contract";
import type { ProjectRecord, UserRecord } from "../store/records.ts";

/**
 * Who is calling: the result of protocol.md §2.3. The HTTP adapter derives it from the request's headers
 * (api/auth/parse-auth.ts); operations decide on it, so it lives here, below both.
 */
export interface Auth {
  type: AccessType;
  project: ProjectRecord;
  branchId: string;
  /** The user of the access token, if one was sent and the user still exists. */
  user: UserRecord | null;
  /** The session (refresh token row) the access token was minted for. */
  sessionId: string | null;
  claims: AccessTokenClaims | null;
}

import { z } from "zod";
import {
  byAccess,
  imageUrl,
  metadata,
  millis,
  paginatedEnvelope,
  queryBoolean,
  restrictedReason,
  uuidV4,
} from "./common.ts";
import { clientTeam, serverTeam } from "./teams.ts";
import { byCaller, created, defineOperations, json, success, view } from "../define-operations.ts";

/** Users (spec §3, protocol.md §5.2). */

export const oauthProviderSummary = z.object({ id: z.string(), account_id: z.string(), email: z.string().nullable() });

/** The client "me" view: exactly these keys (A26 e2e snapshot). */
export const clientUser = z.object({
  id: uuidV4,
  primary_email: z.string().nullable(),
  primary_email_verified: z.boolean(),
  display_name: z.string().nullable(),
  client_metadata: metadata,
  client_read_only_metadata: metadata,
  profile_image_url: z.string().nullable(),
  signed_up_at_millis: millis,
  has_password: z.boolean(),
  auth_with_email: z.boolean(),
  oauth_providers: z.array(oauthProviderSummary),
  selected_team_id: z.string().nullable(),
  selected_team: clientTeam.nullable(),
  requires_totp_mfa: z.boolean(),
  otp_auth_enabled: z.boolean(),
  passkey_auth_enabled: z.boolean(),
  is_anonymous: z.boolean(),
  is_restricted: z.boolean(),
  restricted_reason: restrictedReason.nullable(),
  restricted_by_admin: z.boolean(),
  restricted_by_admin_reason: z.string().nullable(),
});

export const riskScores = z.object({
  sign_up: z.object({ bot: z.number().min(0).max(100), free_trial_abuse: z.number().min(0).max(100) }),
});

export const serverUser = clientUser.extend({
  selected_team: serverTeam.nullable(),
  primary_email_auth_enabled: z.boolean(),
  server_metadata: metadata,
  last_active_at_millis: millis,
  restricted_by_admin_private_details: z.string().nullable(),
  country_code: z.string().nullable(),
  risk_scores: riskScores,
});
/** GET/PATCH /users/me answer the caller's own view. */
export const userView = byAccess(clientUser, serverUser);

export type ClientUserJson = z.infer<typeof clientUser>;
export type ServerUserJson = z.infer<typeof serverUser>;

/**
 * Any address of the HTML living standard's valid-email form (what upstream's schema checks), so an import may hold a
 * host without a dot ("ada@localhost") or a short top-level name; sign-up keeps its stricter check.
 */
const email = z
  .string()
  .max(254)
  .regex(
    /^[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*$/,
    "must be a valid email",
  );
const displayName = z.string().max(256).nullable();
const profileImageUrl = imageUrl.nullable();
/** Base64 of the TOTP secret; null turns MFA off (protocol.md §7.4). */
const totpSecret = z.string().base64().nullable();

/** PATCH /users/me with client access. */
export const clientUserUpdate = z.strictObject({
  display_name: displayName.optional(),
  profile_image_url: profileImageUrl.optional(),
  client_metadata: metadata.optional(),
  selected_team_id: uuidV4.nullable().optional(),
  totp_secret_base64: totpSecret.optional(),
  otp_auth_enabled: z.boolean().optional(),
  passkey_auth_enabled: z.boolean().optional(),
  primary_email: email.nullable().optional(),
});

const serverOnlyUpdateFields = {
  client_read_only_metadata: metadata.optional(),
  server_metadata: metadata.optional(),
  primary_email_verified: z.boolean().optional(),
  primary_email_auth_enabled: z.boolean().optional(),
  password: z.string().nullable().optional(),
  password_hash: z.string().nullable().optional(),
  restricted_by_admin: z.boolean().optional(),
  restricted_by_admin_reason: z.string().nullable().optional(),
  restricted_by_admin_private_details: z.string().nullable().optional(),
  country_code: z.string().length(2).nullable().optional(),
  risk_scores: riskScores.optional(),
};

/**
 * A reason or private details only come with `restricted_by_admin: true` in the same body (the real service's schema
 * test, whatever the user's current state), as a SCHEMA_ERROR.
 */
function restrictionConsistent(
  body: {
    restricted_by_admin?: boolean | undefined;
    restricted_by_admin_reason?: string | null | undefined;
    restricted_by_admin_private_details?: string | null | undefined;
  },
  issues: z.RefinementCtx,
) {
  if (body.restricted_by_admin === true) return;
  if (body.restricted_by_admin_reason != null)
    issues.addIssue({
      code: "custom",
      message: "restricted_by_admin_reason must be null when restricted_by_admin is not true",
    });
  else if (body.restricted_by_admin_private_details != null)
    issues.addIssue({
      code: "custom",
      message: "restricted_by_admin_private_details must be null when restricted_by_admin is not true",
    });
}

/** PATCH /users/{id} (and /users/me) with server access. */
export const serverUserUpdate = clientUserUpdate
  .extend({
    ...serverOnlyUpdateFields,
    /** Only `false`: an anonymous user can be upgraded, never made anonymous. */
    is_anonymous: z.literal(false).optional(),
  })
  .superRefine(restrictionConsistent);

/** POST /users (server). */
export const serverUserCreate = clientUserUpdate
  .omit({ selected_team_id: true })
  .extend({
    ...serverOnlyUpdateFields,
    is_anonymous: z.boolean().optional(),
    oauth_providers: z.array(oauthProviderSummary).optional(),
  })
  .superRefine(restrictionConsistent);

export type ClientUserUpdate = z.infer<typeof clientUserUpdate>;
export type ServerUserUpdate = z.infer<typeof serverUserUpdate>;
export type ServerUserCreate = z.infer<typeof serverUserCreate>;

/** GET /users (server): protocol.md §5.2. */
export const userListQuery = z.strictObject({
  team_id: uuidV4.optional(),
  limit: z.coerce.number().int().min(1).max(1000).optional(),
  cursor: uuidV4.optional(),
  order_by: z.enum(["signed_up_at", "last_active_at"]).optional(),
  desc: queryBoolean.optional(),
  query: z.string().optional(),
  include_anonymous: queryBoolean.optional(),
  only_anonymous: queryBoolean.optional(),
  include_restricted: queryBoolean.optional(),
});
export type UserListQuery = z.infer<typeof userListQuery>;

/** /users/:user_id (server and admin). */
export const userParams = z.strictObject({ user_id: uuidV4 });

/** The operations of this area: what each accepts and answers, who may call it, the known errors its own code may answer. */
export const usersOperations = defineOperations("users", {
  getMe: {
    method: "GET",
    path: "/users/me",
    access: "client",
    errors: ["CANNOT_GET_OWN_USER_WITHOUT_USER"],
    responses: [view(userView)],
  },
  updateMe: {
    method: "PATCH",
    path: "/users/me",
    access: "client",
    body: byCaller(clientUserUpdate, serverUserUpdate),
    errors: [
      "CANNOT_GET_OWN_USER_WITHOUT_USER",
      "TEAM_MEMBERSHIP_ALREADY_EXISTS",
      "TEAM_MEMBERSHIP_NOT_FOUND",
      "TEAM_NOT_FOUND",
      "USER_EMAIL_ALREADY_EXISTS",
    ],
    responses: [view(userView)],
  },
  deleteMe: {
    method: "DELETE",
    path: "/users/me",
    access: "client",
    errors: ["CANNOT_GET_OWN_USER_WITHOUT_USER", "TEAM_MEMBERSHIP_NOT_FOUND"],
    responses: [success],
  },
  listUsers: {
    method: "GET",
    path: "/users",
    access: "server",
    query: userListQuery,
    errors: [],
    responses: [json(paginatedEnvelope(serverUser))],
  },
  createUser: {
    method: "POST",
    path: "/users",
    access: "server",
    body: serverUserCreate,
    errors: [
      "OAUTH_PROVIDER_ACCOUNT_ID_ALREADY_USED_FOR_SIGN_IN",
      "OAUTH_PROVIDER_NOT_FOUND_OR_NOT_ENABLED",
      "TEAM_MEMBERSHIP_ALREADY_EXISTS",
      "USER_EMAIL_ALREADY_EXISTS",
    ],
    responses: [created(serverUser)],
  },
  getUser: {
    method: "GET",
    path: "/users/:user_id",
    access: "server",
    params: userParams,
    query: userListQuery,
    errors: ["USER_NOT_FOUND"],
    responses: [json(serverUser)],
  },
  updateUser: {
    method: "PATCH",
    path: "/users/:user_id",
    access: "server",
    params: userParams,
    query: userListQuery,
    body: serverUserUpdate,
    errors: [
      "TEAM_MEMBERSHIP_ALREADY_EXISTS",
      "TEAM_MEMBERSHIP_NOT_FOUND",
      "TEAM_NOT_FOUND",
      "USER_EMAIL_ALREADY_EXISTS",
      "USER_NOT_FOUND",
    ],
    responses: [json(serverUser)],
  },
  deleteUser: {
    method: "DELETE",
    path: "/users/:user_id",
    access: "server",
    params: userParams,
    query: userListQuery,
    errors: ["TEAM_MEMBERSHIP_NOT_FOUND", "USER_NOT_FOUND"],
    responses: [success],
  },
});

import { z } from "zod";
import { listEnvelope, millis, userIdOrMe, uuidV4 } from "./common.ts";
import { defineOperations, json, success } from "../define-operations.ts";

/** Team invitations (protocol.md §5.5): an invitation is a verification code sent by email. */

/** POST /team-invitations/send-code. */
export const teamInvitationSendCode = z.strictObject({
  email: z.string().max(254).email(),
  team_id: uuidV4,
  callback_url: z.string().url(),
});
export const teamInvitationSendCodeResponse = z.object({ success: z.literal(true), id: uuidV4 });

/** POST /team-invitations/accept, /accept/check-code and /accept/details. */
export const teamInvitationCodeBody = z.strictObject({ code: z.string().min(1).max(256) });
export const teamInvitationCheckCodeResponse = z.object({ is_code_valid: z.literal(true) });
export const teamInvitationDetailsResponse = z.object({ team_id: uuidV4, team_display_name: z.string() });
export const teamInvitationAcceptResponse = z.object({});

/** GET /team-invitations?team_id= or ?user_id=me. */
export const teamInvitation = z.object({
  id: uuidV4,
  team_id: uuidV4,
  team_display_name: z.string(),
  expires_at_millis: millis,
  recipient_email: z.string().nullable(),
});
export type TeamInvitationJson = z.infer<typeof teamInvitation>;
export const teamInvitationListQuery = z.strictObject({ team_id: uuidV4.optional(), user_id: userIdOrMe.optional() });

/** DELETE /team-invitations/{id}?team_id=. */
export const teamInvitationParams = z.strictObject({ invitation_id: uuidV4 });
export const teamInvitationRevokeQuery = z.strictObject({ team_id: uuidV4 });
/** POST /team-invitations/{id}/accept?user_id= (the published SDK's ReceivedTeamInvitation.accept). */
export const teamInvitationAcceptByIdQuery = z.strictObject({ user_id: userIdOrMe });

/** The operations of this area: what each accepts and answers, who may call it, the known errors its own code may answer. */
export const invitationsOperations = defineOperations("invitations", {
  listTeamInvitations: {
    method: "GET",
    path: "/team-invitations",
    access: "client",
    query: teamInvitationListQuery,
    errors: [
      "CANNOT_GET_OWN_USER_WITHOUT_USER",
      "TEAM_MEMBERSHIP_NOT_FOUND",
      "TEAM_NOT_FOUND",
      "TEAM_PERMISSION_REQUIRED",
      "USER_AUTHENTICATION_REQUIRED",
      "USER_NOT_FOUND",
    ],
    responses: [json(listEnvelope(teamInvitation))],
  },
  sendTeamInvitation: {
    method: "POST",
    path: "/team-invitations/send-code",
    access: "client",
    body: teamInvitationSendCode,
    errors: [
      "REDIRECT_URL_NOT_WHITELISTED",
      "TEAM_NOT_FOUND",
      "TEAM_PERMISSION_REQUIRED",
      "USER_AUTHENTICATION_REQUIRED",
    ],
    responses: [json(teamInvitationSendCodeResponse)],
  },
  acceptTeamInvitation: {
    method: "POST",
    path: "/team-invitations/accept",
    access: "client",
    body: teamInvitationCodeBody,
    errors: [
      "ITEM_NOT_FOUND",
      "ITEM_QUANTITY_INSUFFICIENT_AMOUNT",
      "TEAM_INVITATION_RESTRICTED_USER_NOT_ALLOWED",
      "TEAM_MEMBERSHIP_ALREADY_EXISTS",
      "TEAM_NOT_FOUND",
      "USER_AUTHENTICATION_REQUIRED",
      "VERIFICATION_CODE_ALREADY_USED",
      "VERIFICATION_CODE_EXPIRED",
      "VERIFICATION_CODE_MAX_ATTEMPTS_REACHED",
      "VERIFICATION_CODE_NOT_FOUND",
    ],
    responses: [json(teamInvitationAcceptResponse)],
  },
  checkTeamInvitationCode: {
    method: "POST",
    path: "/team-invitations/accept/check-code",
    access: "client",
    body: teamInvitationCodeBody,
    errors: [
      "TEAM_INVITATION_RESTRICTED_USER_NOT_ALLOWED",
      "TEAM_NOT_FOUND",
      "USER_AUTHENTICATION_REQUIRED",
      "VERIFICATION_CODE_ALREADY_USED",
      "VERIFICATION_CODE_EXPIRED",
      "VERIFICATION_CODE_MAX_ATTEMPTS_REACHED",
      "VERIFICATION_CODE_NOT_FOUND",
    ],
    responses: [json(teamInvitationCheckCodeResponse)],
  },
  teamInvitationDetails: {
    method: "POST",
    path: "/team-invitations/accept/details",
    access: "client",
    body: teamInvitationCodeBody,
    errors: [
      "TEAM_INVITATION_RESTRICTED_USER_NOT_ALLOWED",
      "TEAM_NOT_FOUND",
      "USER_AUTHENTICATION_REQUIRED",
      "VERIFICATION_CODE_ALREADY_USED",
      "VERIFICATION_CODE_EXPIRED",
      "VERIFICATION_CODE_MAX_ATTEMPTS_REACHED",
      "VERIFICATION_CODE_NOT_FOUND",
    ],
    responses: [json(teamInvitationDetailsResponse)],
  },
  acceptTeamInvitationById: {
    method: "POST",
    path: "/team-invitations/:invitation_id/accept",
    access: "client",
    params: teamInvitationParams,
    query: teamInvitationAcceptByIdQuery,
    errors: [
      "CANNOT_GET_OWN_USER_WITHOUT_USER",
      "ITEM_NOT_FOUND",
      "ITEM_QUANTITY_INSUFFICIENT_AMOUNT",
      "TEAM_INVITATION_RESTRICTED_USER_NOT_ALLOWED",
      "TEAM_MEMBERSHIP_ALREADY_EXISTS",
      "TEAM_NOT_FOUND",
      "VERIFICATION_CODE_NOT_FOUND",
    ],
    responses: [json(teamInvitationAcceptResponse)],
  },
  revokeTeamInvitation: {
    method: "DELETE",
    path: "/team-invitations/:invitation_id",
    access: "client",
    params: teamInvitationParams,
    query: teamInvitationRevokeQuery,
    errors: [
      "TEAM_MEMBERSHIP_NOT_FOUND",
      "TEAM_NOT_FOUND",
      "TEAM_PERMISSION_REQUIRED",
      "USER_AUTHENTICATION_REQUIRED",
      "VERIFICATION_CODE_ALREADY_USED",
      "VERIFICATION_CODE_EXPIRED",
      "VERIFICATION_CODE_NOT_FOUND",
    ],
    responses: [success],
  },
});

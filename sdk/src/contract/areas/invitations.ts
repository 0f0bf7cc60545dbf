import { z } from "zod";
import { millis, userIdOrMe, uuidV4 } from "./common.ts";

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

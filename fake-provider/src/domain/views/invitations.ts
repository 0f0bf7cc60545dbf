import type { TeamInvitationJson } from "@authsim/sdk/contract";
import type { Invitation } from "../ops/teams/invitations.ts";

/** A team invitation as listed (protocol.md §5.5): the code itself is never shown, only its id. */
export function invitationView(invitation: Invitation): TeamInvitationJson {
  return {
    id: invitation.code.id,
    team_id: invitation.team.id,
    team_display_name: invitation.team.displayName,
    expires_at_millis: invitation.code.expiresAtMillis,
    recipient_email: invitation.recipientEmail,
  };
}

import { type TeamInvitationJson } from "../contract/areas/invitations.ts";
import type { KnownErrorOf } from "../errors/known-error.ts";
import { catchKnown, type Result } from "../errors/result.ts";
import { asClient, type CallAuth } from "../transport/operation-call.ts";
import type { AppContext } from "./app-context.ts";
import { caughtErrors } from "./caught-errors.ts";

/**
 * Team invitations (spec §3 "Team invitation", §4 "Verification codes"; sdk-surface.md §6, §12; protocol.md §5.5):
 * the ones a team sent, the ones a user received, and accepting by the emailed code.
 */

export interface SentTeamInvitation {
  readonly id: string;
  readonly recipientEmail: string | null;
  readonly expiresAt: Date;
  revoke(): Promise<void>;
}
/** The reference SDK's deprecated name for SentTeamInvitation. */
export type TeamInvitation = SentTeamInvitation;

export interface ReceivedTeamInvitation {
  readonly id: string;
  readonly teamId: string;
  readonly teamDisplayName: string;
  readonly recipientEmail: string | null;
  readonly expiresAt: Date;
  accept(): Promise<void>;
}

export async function listSentInvitations(
  ctx: AppContext,
  auth: CallAuth,
  teamId: string,
): Promise<TeamInvitationJson[]> {
  return (await asClient.json(ctx.transport, "listTeamInvitations", { ...auth, query: { team_id: teamId } })).items;
}

export function sentInvitationFromJson(ctx: AppContext, auth: CallAuth, json: TeamInvitationJson): SentTeamInvitation {
  return {
    id: json.id,
    recipientEmail: json.recipient_email,
    expiresAt: new Date(json.expires_at_millis),
    async revoke() {
      await asClient.send(ctx.transport, "revokeTeamInvitation", {
        ...auth,
        params: { invitation_id: json.id },
        query: { team_id: json.team_id },
      });
    },
  };
}

/** The invitations to a user's verified emails; `userId` is "me" for a client, the user's id for server access. */
export async function listReceivedInvitations(
  ctx: AppContext,
  auth: CallAuth,
  userId: string,
): Promise<ReceivedTeamInvitation[]> {
  const page = await asClient.json(ctx.transport, "listTeamInvitations", { ...auth, query: { user_id: userId } });
  return page.items.map((json) => ({
    id: json.id,
    teamId: json.team_id,
    teamDisplayName: json.team_display_name,
    recipientEmail: json.recipient_email,
    expiresAt: new Date(json.expires_at_millis),
    async accept() {
      await asClient.send(ctx.transport, "acceptTeamInvitationById", {
        ...auth,
        params: { invitation_id: json.id },
        query: { user_id: userId },
      });
    },
  }));
}

/** What the code calls return as errors, not exceptions (sdk-surface.md §6; the published SDK catches the same two). */
export type TeamInvitationCodeError = KnownErrorOf<(typeof caughtErrors.acceptTeamInvitation)[number]>;

export function verifyTeamInvitationCode(
  ctx: AppContext,
  auth: CallAuth,
  code: string,
): Promise<Result<void, TeamInvitationCodeError>> {
  return catchKnown(async () => {
    await asClient.json(ctx.transport, "checkTeamInvitationCode", { ...auth, body: { code } });
  }, caughtErrors.checkTeamInvitationCode);
}

export function acceptTeamInvitation(
  ctx: AppContext,
  auth: CallAuth,
  code: string,
): Promise<Result<void, TeamInvitationCodeError>> {
  return catchKnown(async () => {
    await asClient.json(ctx.transport, "acceptTeamInvitation", { ...auth, body: { code } });
  }, caughtErrors.acceptTeamInvitation);
}

export function getTeamInvitationDetails(
  ctx: AppContext,
  auth: CallAuth,
  code: string,
): Promise<Result<{ teamDisplayName: string }, TeamInvitationCodeError>> {
  return catchKnown(async () => {
    const json = await asClient.json(ctx.transport, "teamInvitationDetails", { ...auth, body: { code } });
    return { teamDisplayName: json.team_display_name };
  }, caughtErrors.teamInvitationDetails);
}

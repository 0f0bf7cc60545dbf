import { listEnvelope } from "../contract/areas/common.ts";
import {
  teamInvitation,
  teamInvitationAcceptResponse,
  teamInvitationCheckCodeResponse,
  teamInvitationDetailsResponse,
  type TeamInvitationJson,
} from "../contract/areas/invitations.ts";
import type { KnownErrorOf } from "../errors/known-error.ts";
import { catchKnown, type Result } from "../errors/result.ts";
import type { RequestOptions } from "../transport/transport.ts";
import type { AppContext } from "./app-context.ts";

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

const invitationList = listEnvelope(teamInvitation);

export async function listSentInvitations(ctx: AppContext, auth: RequestOptions, teamId: string): Promise<TeamInvitationJson[]> {
  return (await ctx.transport.requestJson("/team-invitations", { ...auth, query: { team_id: teamId } }, invitationList)).items;
}

export function sentInvitationFromJson(ctx: AppContext, auth: RequestOptions, json: TeamInvitationJson): SentTeamInvitation {
  return {
    id: json.id,
    recipientEmail: json.recipient_email,
    expiresAt: new Date(json.expires_at_millis),
    async revoke() {
      const path = `/team-invitations/${encodeURIComponent(json.id)}`;
      await ctx.transport.request(path, { ...auth, method: "DELETE", query: { team_id: json.team_id } });
    },
  };
}

/** The invitations to a user's verified emails; `userId` is "me" for a client, the user's id for server access. */
export async function listReceivedInvitations(ctx: AppContext, auth: RequestOptions, userId: string): Promise<ReceivedTeamInvitation[]> {
  const page = await ctx.transport.requestJson("/team-invitations", { ...auth, query: { user_id: userId } }, invitationList);
  return page.items.map((json) => ({
    id: json.id,
    teamId: json.team_id,
    teamDisplayName: json.team_display_name,
    recipientEmail: json.recipient_email,
    expiresAt: new Date(json.expires_at_millis),
    async accept() {
      const path = `/team-invitations/${encodeURIComponent(json.id)}/accept`;
      await ctx.transport.request(path, { ...auth, method: "POST", query: { user_id: userId } });
    },
  }));
}

/** What the code calls return as errors, not exceptions (sdk-surface.md §6; the published SDK catches the same two). */
const CODE_ERRORS = ["VERIFICATION_ERROR", "TEAM_INVITATION_EMAIL_MISMATCH"] as const;
export type TeamInvitationCodeError = KnownErrorOf<(typeof CODE_ERRORS)[number]>;

export function verifyTeamInvitationCode(ctx: AppContext, auth: RequestOptions, code: string): Promise<Result<void, TeamInvitationCodeError>> {
  return catchKnown(async () => {
    await ctx.transport.requestJson("/team-invitations/accept/check-code", { ...auth, method: "POST", body: { code } }, teamInvitationCheckCodeResponse);
  }, CODE_ERRORS);
}

export function acceptTeamInvitation(ctx: AppContext, auth: RequestOptions, code: string): Promise<Result<void, TeamInvitationCodeError>> {
  return catchKnown(async () => {
    await ctx.transport.requestJson("/team-invitations/accept", { ...auth, method: "POST", body: { code } }, teamInvitationAcceptResponse);
  }, CODE_ERRORS);
}

export function getTeamInvitationDetails(
  ctx: AppContext,
  auth: RequestOptions,
  code: string,
): Promise<Result<{ teamDisplayName: string }, TeamInvitationCodeError>> {
  return catchKnown(async () => {
    const json = await ctx.transport.requestJson("/team-invitations/accept/details", { ...auth, method: "POST", body: { code } }, teamInvitationDetailsResponse);
    return { teamDisplayName: json.team_display_name };
  }, CODE_ERRORS);
}

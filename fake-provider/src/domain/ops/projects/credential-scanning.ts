import { knownError } from "../../errors/known-error.ts";
import type { ProjectApiKeyRecord } from "../../store/account-records.ts";
import type { OpContext } from "../context.ts";
import { escapeHtml, htmlTemplateSource, newOutboxFields, TRANSACTIONAL } from "../emails/email-outbox.ts";
import { queueEmails } from "../emails/email-sending.ts";
import { listTeamPermissions } from "../teams/permission-grants.ts";

/**
 * POST /integrations/credential-scanning/revoke: a secret scanner reports a user or team API key found in public. The
 * key is looked up by its secret across every project; a public key cannot be revoked this way, an expired one is
 * refused, one already revoked is left as it is (and nobody is told again). Otherwise it is revoked and its owners are
 * told by email: a user key's user, a team key's members who may manage the team's keys ($manage_api_keys, through
 * the permission graph), each at their primary email.
 *
 * The email is sent as upstream sends it: its HTML as a template (no theme), queued like send-email's and rendered by
 * the queue (so its document and its text are made as every queued email's are), one entry per address (recipient
 * "custom-emails"), high priority, in the Transactional category, with the subject given. Only the wording is ours.
 */

function findBySecret(ctx: OpContext, secret: string): ProjectApiKeyRecord | undefined {
  for (const key of ctx.tables.projectApiKeys.values()) if (key.value === secret) return key;
  return undefined;
}

/** Who is told: the primary emails of the key's owners, once each. */
function ownersToTell(ctx: OpContext, key: ProjectApiKeyRecord): string[] {
  const userIds =
    key.userId !== null
      ? [key.userId]
      : listTeamPermissions(ctx, key.projectId, {
          teamId: key.teamId ?? undefined,
          permissionId: "$manage_api_keys",
          recursive: true,
        }).map((grant) => grant.userId);
  const emails = new Set<string>();
  for (const userId of userIds) {
    const email = ctx.tables.users.get(userId)?.primaryEmail;
    if (email) emails.add(email);
  }
  return [...emails];
}

export function revokeLeakedApiKey(ctx: OpContext, secret: string): { success: true } {
  const key = findBySecret(ctx, secret);
  if (!key) throw knownError("API_KEY_NOT_FOUND");
  if (key.isPublic) throw knownError("PUBLIC_API_KEY_CANNOT_BE_REVOKED");
  if (key.expiresAtMillis !== null && key.expiresAtMillis < ctx.now) throw knownError("API_KEY_EXPIRED");
  if (key.manuallyRevokedAtMillis !== null) return { success: true };
  ctx.tables.projectApiKeys.set(key.id, { ...key, manuallyRevokedAtMillis: ctx.now });

  const project = ctx.tables.projects.get(key.projectId);
  const subject = `API Key Revoked: ${key.description}`;
  const html = `<div><h2>API key revoked</h2><p>${escapeHtml(
    `The API key "${key.description}" of ${project?.displayName ?? key.projectId} was found in a public place and has been revoked. Create a new key if you still need one.`,
  )}</p></div>`;
  queueEmails(
    ctx,
    key.projectId,
    ownersToTell(ctx, key).map((email) => ({
      userId: null,
      fields: newOutboxFields(
        ctx,
        { type: "custom-emails", emails: [email] },
        {
          tsxSource: htmlTemplateSource(html),
          isHighPriority: true,
          notificationCategoryId: null,
          awaitingRender: true,
          subjectOverride: subject,
          categoryOverrideId: TRANSACTIONAL.id,
        },
      ),
    })),
  );
  return { success: true };
}

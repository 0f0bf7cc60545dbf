import { type ManagedEmailDomainJson, type ManagedEmailStatus } from "../contract/areas/managed-email.ts";
import type { AppContext } from "../client/app-context.ts";
import { asServer } from "../transport/operation-call.ts";

/**
 * Managed email onboarding (sdk-surface.md §8: setupManagedEmailProvider, checkManagedEmailStatus,
 * listManagedEmailDomains, applyManagedEmailProvider, deleteManagedEmailDomain): a sending subdomain the service sets up, verifies and, when
 * asked, makes the project's email server. A bad subdomain or sender, an unknown domain or applying before verification
 * are the service's plain-text 4xx, raised as HttpError.
 */

export type { ManagedEmailStatus };

/** A tracked domain, as setup answers it (the published kit's type names). */
export interface ManagedEmailProviderSetupResult {
  domainId: string;
  subdomain: string;
  senderLocalPart: string;
  nameServerRecords: string[];
  status: ManagedEmailStatus;
}
/** An item of the list: the same record. */
export type ManagedEmailProviderListItem = ManagedEmailProviderSetupResult;
export interface ManagedEmailProviderStatus {
  status: ManagedEmailStatus;
}

const fromWire = (d: ManagedEmailDomainJson): ManagedEmailProviderSetupResult => ({
  domainId: d.domain_id,
  subdomain: d.subdomain,
  senderLocalPart: d.sender_local_part,
  nameServerRecords: d.name_server_records,
  status: d.status,
});

export async function setupManagedEmailProvider(
  ctx: AppContext,
  options: { subdomain: string; senderLocalPart: string },
): Promise<ManagedEmailProviderSetupResult> {
  const body = { subdomain: options.subdomain, sender_local_part: options.senderLocalPart };
  return fromWire(await asServer.json(ctx.transport, "setupManagedEmail", { body }));
}

export async function checkManagedEmailStatus(
  ctx: AppContext,
  options: { domainId: string; subdomain: string; senderLocalPart: string },
): Promise<ManagedEmailProviderStatus> {
  const body = {
    domain_id: options.domainId,
    subdomain: options.subdomain,
    sender_local_part: options.senderLocalPart,
  };
  const json = await asServer.json(ctx.transport, "checkManagedEmail", { body });
  return { status: json.status };
}

export async function listManagedEmailDomains(ctx: AppContext): Promise<ManagedEmailProviderListItem[]> {
  return (await asServer.json(ctx.transport, "listManagedEmailDomains", {})).items.map(fromWire);
}

export async function applyManagedEmailProvider(
  ctx: AppContext,
  options: { domainId: string },
): Promise<{ status: "applied" }> {
  const json = await asServer.json(ctx.transport, "applyManagedEmail", { body: { domain_id: options.domainId } });
  return { status: json.status };
}

/** Stops tracking a domain; the service refuses (plain 409) while the email server sends from it. */
export async function deleteManagedEmailDomain(
  ctx: AppContext,
  options: { resendDomainId: string },
): Promise<{ status: "deleted" }> {
  const json = await asServer.json(ctx.transport, "deleteManagedEmail", {
    body: { resend_domain_id: options.resendDomainId },
  });
  return { status: json.status };
}

import type { ManagedEmailDomainJson } from "@authsim/sdk/contract";
import type { ManagedEmailDomainRecord } from "../../store/admin-records.ts";
import type { ProjectRecord } from "../../store/records.ts";
import { nextSequence } from "../../store/store.ts";
import type { OpContext } from "../context.ts";
import { writeOverride } from "../config/project-config.ts";
import { refusal } from "../../errors/refusals.ts";

/**
 * Managed email onboarding (POST/GET /internal/emails/managed-onboarding/{setup,list,check,apply,delete}). Upstream creates
 * the subdomain at its email provider and a DNS zone for it, learns of the verification from the provider's webhook,
 * and on apply writes a sending key for the subdomain into the project's email server config. Without provider
 * credentials (its development and test setup, which is the emulator's situation) it does none of that: the domain gets
 * a made-up id and fixed name servers, verification completes a second after setup, and the key is made up too. This
 * is that mode. Emails of a project on the managed server go to the outbox like any others (domain/ops/emails/mail-server.ts:
 * its relay's host resolves).
 *
 * The refusals are upstream's plain-text StatusErrors, with its wording.
 */

/** How long after setup the verification completes (upstream's offline mode marks the domain verified after 1 s). */
export const VERIFICATION_DELAY_MILLIS = 1_000;
/** The name servers upstream's offline mode gives every domain. */
const NAME_SERVERS = ["ns1.dnsimple.com", "ns2.dnsimple.com"];

/** Lower case, outer whitespace and trailing dots gone: the form a subdomain is stored and compared in. */
function normalizedName(name: string): string {
  return name.trim().toLowerCase().replace(/\.+$/, "");
}

/**
 * At most 253 characters in two or more dot-separated labels: each label but the last 1–63 letters, digits and
 * hyphens, neither starting nor ending with a hyphen; the last 2–63 letters, digits and hyphens.
 */
function isFullyQualified(name: string): boolean {
  if (name.length === 0 || name.length > 253) return false;
  const labels = name.split(".");
  const last = labels.pop()!;
  return (
    labels.length > 0 &&
    /^[a-z0-9-]{2,63}$/i.test(last) &&
    labels.every((l) => /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/i.test(l))
  );
}

/** The subdomain as stored, after upstream's checks of both values (the subdomain first). */
function checkedSetup(subdomain: string, senderLocalPart: string): string {
  const name = normalizedName(subdomain);
  if (!isFullyQualified(name)) throw refusal("subdomainNotFullyQualified");
  // Letters, digits and . _ % + - only.
  if (!/^[\w.%+-]+$/.test(senderLocalPart)) throw refusal("invalidSenderLocalPart");
  return name;
}

/**
 * The domain as it is at `now`: a pending domain reads as verified once its verification time has come. Upstream
 * writes that change when its provider reports it; here it follows from the clock, so moving the clock moves it.
 */
function domainAt(d: ManagedEmailDomainRecord, now: number): ManagedEmailDomainRecord {
  if (d.status !== "pending_verification" || now < d.verifiesAtMillis) return d;
  return { ...d, status: "verified", updatedAtMillis: Math.max(d.updatedAtMillis, d.verifiesAtMillis) };
}

function domainView(d: ManagedEmailDomainRecord): ManagedEmailDomainJson {
  return {
    domain_id: d.id,
    subdomain: d.subdomain,
    sender_local_part: d.senderLocalPart,
    name_server_records: [...d.nameServerRecords],
    status: d.status,
  };
}

const subdomainKey = (projectId: string, subdomain: string) => `${projectId}\u0000${subdomain}`;

/** The id upstream's offline mode gives a domain: its tenancy (here the project) and subdomain, URL-safe. */
const offlineDomainId = (projectId: string, subdomain: string) =>
  `managed_mock_${projectId}_${subdomain}`.replace(/[^\w-]/g, "_");

// Transitions: the only writes to the table, each through `save`.

function save(
  ctx: OpContext,
  record: Omit<ManagedEmailDomainRecord, "updatedAtMillis" | "writeSeq">,
): ManagedEmailDomainRecord {
  const saved = { ...record, updatedAtMillis: ctx.now, writeSeq: nextSequence(ctx.tables, "managedEmailDomains") };
  ctx.tables.managedEmailDomains.set(saved.id, saved);
  return saved;
}

function createDomain(
  ctx: OpContext,
  projectId: string,
  subdomain: string,
  senderLocalPart: string,
): ManagedEmailDomainRecord {
  const id = offlineDomainId(projectId, subdomain);
  // Ids are unique across projects; two projects whose ids and subdomains flatten alike would share one. Upstream's
  // provider refuses a domain it already has with this answer.
  if (ctx.tables.managedEmailDomains.has(id)) {
    throw refusal("subdomainAlreadyExistsResendIf");
  }
  return save(ctx, {
    id,
    projectId,
    subdomain,
    senderLocalPart,
    nameServerRecords: NAME_SERVERS,
    status: "pending_verification",
    verifiesAtMillis: ctx.now + VERIFICATION_DELAY_MILLIS,
    createdAtMillis: ctx.now,
  });
}

/** Applied now; any other applied domain of the project goes back to verified (one domain sends at a time). */
function markApplied(ctx: OpContext, domain: ManagedEmailDomainRecord): void {
  for (const other of ctx.tables.managedEmailDomains.values()) {
    if (other.projectId !== domain.projectId || other.id === domain.id || other.status !== "applied") continue;
    save(ctx, { ...other, status: "verified" });
  }
  save(ctx, { ...domain, status: "applied" });
}

function remove(ctx: OpContext, domain: ManagedEmailDomainRecord): void {
  ctx.tables.managedEmailDomains.delete(domain.id);
}

/** POST …/setup: tracks the subdomain, or answers the one already tracked for it (whatever its status now). */
export function setupManagedEmail(
  ctx: OpContext,
  project: ProjectRecord,
  body: { subdomain: string; sender_local_part: string },
): ManagedEmailDomainJson {
  const subdomain = checkedSetup(body.subdomain, body.sender_local_part);
  const existing = ctx.tables.managedEmailDomains.lookup("subdomain", subdomainKey(project.id, subdomain));
  if (existing) {
    if (existing.senderLocalPart !== body.sender_local_part) throw refusal("subdomainAlreadyTrackedDifferentSender");
    return domainView(domainAt(existing, ctx.now));
  }
  return domainView(createDomain(ctx, project.id, subdomain, body.sender_local_part));
}

/** GET …/list: the project's domains, the most recently changed first (a verification counts as a change). */
export function listManagedEmailDomains(ctx: OpContext, project: ProjectRecord): { items: ManagedEmailDomainJson[] } {
  const domains = [...ctx.tables.managedEmailDomains.values()]
    .filter((d) => d.projectId === project.id)
    .map((d) => domainAt(d, ctx.now));
  domains.sort((a, b) => b.updatedAtMillis - a.updatedAtMillis || b.writeSeq - a.writeSeq);
  return { items: domains.map(domainView) };
}

/** POST …/check: the status of the project's domain with this id, subdomain and sender, all three matching. */
export function checkManagedEmail(
  ctx: OpContext,
  project: ProjectRecord,
  body: { domain_id: string; subdomain: string; sender_local_part: string },
): { status: ManagedEmailDomainRecord["status"] } {
  const subdomain = checkedSetup(body.subdomain, body.sender_local_part);
  const domain = ctx.tables.managedEmailDomains.lookup("subdomain", subdomainKey(project.id, subdomain));
  if (!domain || domain.id !== body.domain_id || domain.senderLocalPart !== body.sender_local_part) {
    throw refusal("managedDomainSetupFoundProject");
  }
  return { status: domainAt(domain, ctx.now).status };
}

/**
 * POST …/apply: a verified domain becomes the project's email server (the config's environment level, where upstream
 * writes it); applying the applied domain again changes nothing.
 */
export function applyManagedEmail(
  ctx: OpContext,
  project: ProjectRecord,
  body: { domain_id: string },
): { status: "applied" } {
  const stored = ctx.tables.managedEmailDomains.get(body.domain_id);
  if (!stored || stored.projectId !== project.id) throw refusal("managedDomainFoundProjectBranch");
  const domain = domainAt(stored, ctx.now);
  if (domain.status === "applied") return { status: "applied" };
  if (domain.status !== "verified") throw refusal("managedDomainVerifiedYet");
  writeOverride(
    ctx,
    ctx.tables.projects.get(project.id) ?? project,
    "environment",
    {
      "emails.server.isShared": false,
      "emails.server.provider": "managed",
      // The sending key upstream's offline mode makes up for the project (there is no provider to issue one).
      "emails.server.password": `managed_mock_key_${project.id}`,
      "emails.server.senderName": project.displayName,
      "emails.server.senderEmail": `${domain.senderLocalPart}@${domain.subdomain}`,
      "emails.server.managedSubdomain": domain.subdomain,
      "emails.server.managedSenderLocalPart": domain.senderLocalPart,
    },
    "merge",
  );
  markApplied(ctx, domain);
  return { status: "applied" };
}

/** Whether the project's email server is the managed provider sending from this domain's subdomain and sender. */
function inUse(project: ProjectRecord, domain: ManagedEmailDomainRecord): boolean {
  const email = project.config.email_config;
  return (
    email?.type === "standard" &&
    email.managed?.subdomain === domain.subdomain &&
    email.managed.sender_local_part === domain.senderLocalPart
  );
}

/**
 * POST …/delete (a later version of the service; the published kit's deleteManagedEmailDomain): stops tracking one of
 * the project's domains, unless the email server sends from it now. A domain applied earlier and since replaced, or one
 * whose server was switched to another provider, may go.
 */
export function deleteManagedEmail(
  ctx: OpContext,
  project: ProjectRecord,
  body: { resend_domain_id: string },
): { status: "deleted" } {
  const domain = ctx.tables.managedEmailDomains.get(body.resend_domain_id);
  if (!domain || domain.projectId !== project.id) throw refusal("managedDomainFoundProjectBranch");
  if (inUse(ctx.tables.projects.get(project.id) ?? project, domain)) throw refusal("cannotDeleteManagedDomainThat");
  remove(ctx, domain);
  return { status: "deleted" };
}

/**
 * A domain status reported by the email provider's webhook (domain/ops/emails/resend-webhooks.ts), mapped as upstream maps it:
 * "verified", a failure ("failed", "partially_failed", "temporary_failure"), or else still pending. A pending report
 * holds the domain pending until a later report (the clock no longer verifies it). An id no domain has changes nothing.
 */
export function applyProviderDomainStatus(ctx: OpContext, domainId: string, rawStatus: string): void {
  const domain = ctx.tables.managedEmailDomains.get(domainId);
  if (!domain) return;
  const raw = rawStatus.toLowerCase();
  if (raw === "verified") save(ctx, { ...domain, status: "verified" });
  else if (raw === "failed" || raw === "partially_failed" || raw === "temporary_failure")
    save(ctx, { ...domain, status: "failed" });
  else save(ctx, { ...domain, status: "pending_verification", verifiesAtMillis: Number.MAX_SAFE_INTEGER });
}

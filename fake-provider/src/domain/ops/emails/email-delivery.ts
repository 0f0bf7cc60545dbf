import { knownError } from "../../errors/known-error.ts";
import type { ProjectRecord } from "../../store/records.ts";
import type { OpContext } from "../context.ts";
import { deliveredAtMillis, isDelivered } from "./email-outbox.ts";

/**
 * Delivery statistics and the sending capacity (GET /emails/delivery-info, POST /emails/capacity-boost), as the real
 * service computes them: a baseline of 100,000 emails an hour plus four times last month's hourly average, times a
 * penalty for bounces and spam reports (none happen here, so it stays 1), times 4 while a boost is active (4 hours).
 */

const HOUR = 3_600_000;
const DEFAULT_CAPACITY_PER_HOUR = 100_000;
const BOOST_MULTIPLIER = 4;
const BOOST_DURATION_MILLIS = 4 * HOUR;

const boostExpiry = (ctx: OpContext, project: ProjectRecord): number | null => {
  const at = project.emailCapacityBoostExpiresAtMillis;
  return at !== undefined && at > ctx.now ? at : null;
};

export function deliveryInfo(ctx: OpContext, project: ProjectRecord) {
  const sent = [...ctx.tables.emails.values()]
    .filter((e) => e.projectId === project.id && isDelivered(e, ctx.now))
    .map(deliveredAtMillis);
  const window = (millis: number) => ({
    sent: sent.filter((at) => at > ctx.now - millis).length,
    bounced: 0,
    marked_as_spam: 0,
  });
  const stats = {
    hour: window(HOUR),
    day: window(24 * HOUR),
    week: window(7 * 24 * HOUR),
    month: window(30 * 24 * HOUR),
  };
  const boostedUntil = boostExpiry(ctx, project);
  const multiplier = boostedUntil !== null ? BOOST_MULTIPLIER : 1;
  const perHour = DEFAULT_CAPACITY_PER_HOUR + (4 * stats.month.sent) / 30 / 24;
  return {
    stats,
    capacity: {
      rate_per_second: (perHour / 60 / 60) * multiplier,
      boost_multiplier: multiplier,
      penalty_factor: 1,
      is_boost_active: boostedUntil !== null,
      boost_expires_at: boostedUntil !== null ? new Date(boostedUntil).toISOString() : null,
    },
  };
}

/** POST /emails/capacity-boost: four hours of 4× capacity; EMAIL_CAPACITY_BOOST_ALREADY_ACTIVE while one runs. */
export function activateCapacityBoost(ctx: OpContext, caller: ProjectRecord): { expires_at: string } {
  // The project as the tables hold it now (the caller's record is as the request's authentication read it).
  const project = ctx.tables.projects.get(caller.id) ?? caller;
  const active = boostExpiry(ctx, project);
  if (active !== null)
    throw knownError("EMAIL_CAPACITY_BOOST_ALREADY_ACTIVE", { expires_at: new Date(active).toISOString() });
  const expiresAt = ctx.now + BOOST_DURATION_MILLIS;
  ctx.tables.projects.set(project.id, { ...project, emailCapacityBoostExpiresAtMillis: expiresAt });
  return { expires_at: new Date(expiresAt).toISOString() };
}

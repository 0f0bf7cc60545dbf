import type { MetricsJson } from "@authsim/sdk/contract";
import type { UserRecord } from "../store/records.ts";
import type { OpContext } from "./context.ts";

/**
 * GET /internal/metrics (spec §7 Admin): the dashboard's numbers, computed from the project's state at the provider's
 * time. Anonymous users count only with include_anonymous (as upstream's query parameter says).
 */

const DAY = 86_400_000;
const DAYS = 30;

const isoDay = (millis: number) => new Date(millis).toISOString().slice(0, 10);

function userView(u: UserRecord) {
  return { id: u.id, display_name: u.displayName, primary_email: u.primaryEmail, signed_up_at_millis: u.signedUpAtMillis, last_active_at_millis: u.lastActiveAtMillis };
}

export function computeMetrics(ctx: OpContext, projectId: string, includeAnonymous: boolean): MetricsJson {
  const users = [...ctx.tables.users.values()].filter((u) => u.projectId === projectId && (includeAnonymous || !u.isAnonymous));
  const today = Math.floor(ctx.now / DAY) * DAY;
  const days = Array.from({ length: DAYS }, (_, i) => today - (DAYS - 1 - i) * DAY);
  // Activity per day: sessions last used or opened that day stand for the user being active.
  const sessions = [...ctx.tables.sessions.values()].filter((s) => s.projectId === projectId);
  const activeOn = (day: number) =>
    new Set(sessions.filter((s) => (s.lastUsedAtMillis >= day && s.lastUsedAtMillis < day + DAY) || (s.createdAtMillis >= day && s.createdAtMillis < day + DAY)).map((s) => s.userId));
  const byCountry: Record<string, number> = {};
  for (const u of users) if (u.countryCode) byCountry[u.countryCode] = (byCountry[u.countryCode] ?? 0) + 1;
  const passwordUsers = users.filter((u) => u.passwordHash !== null).length;
  const otpUsers = users.filter((u) => u.otpAuthEnabled).length;
  const passkeyUsers = users.filter((u) => u.passkeyAuthEnabled).length;
  const anonymousUsers = users.filter((u) => u.isAnonymous).length;
  return {
    total_users: users.length,
    daily_users: days.map((day) => ({ date: isoDay(day), activity: users.filter((u) => u.signedUpAtMillis >= day && u.signedUpAtMillis < day + DAY).length })),
    daily_active_users: days.map((day) => {
      const active = activeOn(day);
      return { date: isoDay(day), activity: users.filter((u) => active.has(u.id)).length };
    }),
    users_by_country: byCountry,
    recently_registered: [...users].sort((a, b) => b.signedUpAtMillis - a.signedUpAtMillis || (a.id < b.id ? -1 : 1)).slice(0, 5).map(userView),
    recently_active: [...users].sort((a, b) => b.lastActiveAtMillis - a.lastActiveAtMillis || (a.id < b.id ? -1 : 1)).slice(0, 5).map(userView),
    login_methods: [
      { method: "password", count: passwordUsers },
      { method: "otp", count: otpUsers },
      { method: "passkey", count: passkeyUsers },
      ...(includeAnonymous ? [{ method: "anonymous", count: anonymousUsers }] : []),
    ],
  };
}

import type { MetricsJson } from "@authsim/sdk/contract";
import type { UserRecord } from "../../store/records.ts";
import type { OpContext } from "../context.ts";

/**
 * GET /internal/metrics (spec §7 Admin): the dashboard's numbers, computed from the project's state at the provider's
 * time. Anonymous users count only with include_anonymous (as upstream's query parameter says). Daily series cover
 * the real service's window: today and the 30 days before (31 points). What the real service reads from its analytics
 * and billing stores (page views, clicks, visitors, referrers, revenue, email deliverability) the emulator does not
 * keep: those figures are zero, in the real shape, so the dashboard's widgets render.
 */

const DAY = 86_400_000;
const DAYS = 31;

const isoDay = (millis: number) => new Date(millis).toISOString().slice(0, 10);

function userView(u: UserRecord) {
  return {
    id: u.id,
    display_name: u.displayName,
    primary_email: u.primaryEmail,
    signed_up_at_millis: u.signedUpAtMillis,
    last_active_at_millis: u.lastActiveAtMillis,
  };
}

export function computeMetrics(ctx: OpContext, projectId: string, includeAnonymous: boolean): MetricsJson {
  const users = [...ctx.tables.users.values()].filter(
    (u) => u.projectId === projectId && (includeAnonymous || !u.isAnonymous),
  );
  const today = Math.floor(ctx.now / DAY) * DAY;
  const days = Array.from({ length: DAYS }, (_, i) => today - (DAYS - 1 - i) * DAY);
  // Activity per day: sessions last used or opened that day stand for the user being active.
  const sessions = [...ctx.tables.sessions.values()].filter((s) => s.projectId === projectId);
  const activeOn = (day: number) =>
    new Set(
      sessions
        .filter(
          (s) =>
            (s.lastUsedAtMillis >= day && s.lastUsedAtMillis < day + DAY) ||
            (s.createdAtMillis >= day && s.createdAtMillis < day + DAY),
        )
        .map((s) => s.userId),
    );
  const byCountry: Record<string, number> = {};
  for (const u of users) if (u.countryCode) byCountry[u.countryCode] = (byCountry[u.countryCode] ?? 0) + 1;
  const passwordUsers = users.filter((u) => u.passwordHash !== null).length;
  const otpUsers = users.filter((u) => u.otpAuthEnabled).length;
  const passkeyUsers = users.filter((u) => u.passkeyAuthEnabled).length;
  const anonymousUsers = users.filter((u) => u.isAnonymous).length;
  const allUsers = [...ctx.tables.users.values()].filter((u) => u.projectId === projectId);
  const nonAnonymous = allUsers.filter((u) => !u.isAnonymous);
  const verified = nonAnonymous.filter((u) => u.primaryEmailVerified).length;
  const zeros = () => days.map((day) => ({ date: isoDay(day), activity: 0 }));
  const activeSeries = days.map((day) => activeOn(day));
  const counted = users.map((u) => u.id);
  const split = (pick: (userId: string, i: number) => boolean) =>
    days.map((day, i) => ({
      date: isoDay(day),
      activity: counted.filter((id) => activeSeries[i]!.has(id) && pick(id, i)).length,
    }));
  const signedUpOn = (id: string, i: number) => {
    const u = ctx.tables.users.get(id)!;
    return u.signedUpAtMillis >= days[i]! && u.signedUpAtMillis < days[i]! + DAY;
  };
  const activeBefore = (id: string, i: number) => i > 0 && activeSeries[i - 1]!.has(id);
  const monthStart = ctx.now - 30 * DAY;
  const emails = [...ctx.tables.emails.values()].filter((e) => e.projectId === projectId);
  // A session opened or refreshed stands for upstream's token-refresh event: online = such activity in 5 minutes.
  const usedSince = (since: number) =>
    sessions.filter((s) => (s.lastUsedAtMillis >= since || s.createdAtMillis >= since) && counted.includes(s.userId));
  const onlineLive = new Set(usedSince(ctx.now - 5 * 60_000).map((s) => s.userId)).size;
  // The region with most users active in the window, by where their sessions were used (null when no IP was sent).
  const regions = new Map<string, { country_code: string | null; region_code: string | null; users: Set<string> }>();
  for (const s of usedSince(days[0]!)) {
    const country = s.endUserIpInfo?.countryCode ?? null;
    const region = s.endUserIpInfo?.regionCode ?? null;
    const key = JSON.stringify([country, region]);
    const entry = regions.get(key) ?? { country_code: country, region_code: region, users: new Set<string>() };
    entry.users.add(s.userId);
    regions.set(key, entry);
  }
  const top = [...regions.values()].sort((a, b) => b.users.size - a.users.size)[0];
  return {
    total_users: users.length,
    daily_users: days.map((day) => ({
      date: isoDay(day),
      activity: users.filter((u) => u.signedUpAtMillis >= day && u.signedUpAtMillis < day + DAY).length,
    })),
    daily_active_users: days.map((day) => {
      const active = activeOn(day);
      return { date: isoDay(day), activity: users.filter((u) => active.has(u.id)).length };
    }),
    users_by_country: byCountry,
    recently_registered: [...users]
      .sort((a, b) => b.signedUpAtMillis - a.signedUpAtMillis || (a.id < b.id ? -1 : 1))
      .slice(0, 5)
      .map(userView),
    recently_active: [...users]
      .sort((a, b) => b.lastActiveAtMillis - a.lastActiveAtMillis || (a.id < b.id ? -1 : 1))
      .slice(0, 5)
      .map(userView),
    // Only the methods some user has, as upstream groups them.
    login_methods: [
      { method: "password", count: passwordUsers },
      { method: "otp", count: otpUsers },
      { method: "passkey", count: passkeyUsers },
      ...(includeAnonymous ? [{ method: "anonymous", count: anonymousUsers }] : []),
    ].filter((m) => m.count > 0),
    auth_overview: {
      // Verified and unverified count non-anonymous users always; anonymous users are their own bucket.
      verified_users: verified,
      unverified_users: nonAnonymous.length - verified,
      anonymous_users: allUsers.length - nonAnonymous.length,
      total_teams: [...ctx.tables.teams.values()].filter((t) => t.projectId === projectId).length,
      mau: new Set(
        sessions
          .filter((s) => s.lastUsedAtMillis >= monthStart || s.createdAtMillis >= monthStart)
          .map((s) => s.userId)
          .filter((id) => counted.includes(id)),
      ).size,
      total_users_filtered: users.length,
      daily_active_users_split: {
        total: split(() => true),
        new: split(signedUpOn),
        retained: split((id, i) => !signedUpOn(id, i) && activeBefore(id, i)),
        reactivated: split((id, i) => !signedUpOn(id, i) && !activeBefore(id, i)),
      },
      // Team activity is read from the real service's analytics events, which the emulator does not keep.
      daily_active_teams_split: { total: zeros(), new: zeros(), retained: zeros(), reactivated: zeros() },
    },
    payments_overview: {
      subscriptions_by_status: {},
      active_subscription_count: 0,
      total_one_time_purchases: 0,
      total_orders: 0,
      revenue_cents: 0,
      mrr_cents: 0,
      checkout_conversion_rate: 0,
      daily_subscriptions: zeros(),
    },
    email_overview: {
      emails_by_status: {},
      total_emails: emails.length,
      emails_sent: 0,
      daily_emails: days.map((day) => ({
        date: isoDay(day),
        activity: emails.filter((e) => e.sentAtMillis >= day && e.sentAtMillis < day + DAY).length,
      })),
      daily_emails_by_status: days.map((day) => ({ date: isoDay(day), ok: 0, error: 0, in_progress: 0 })),
      deliverability_status: { delivered: 0, bounced: 0, error: 0, in_progress: 0 },
      deliverability_rate: 0,
      bounce_rate: 0,
      click_rate: 0,
      recent_emails: [],
    },
    analytics_overview: {
      daily_page_views: zeros(),
      daily_clicks: zeros(),
      daily_visitors: zeros(),
      daily_revenue: days.map((day) => ({ date: isoDay(day), new_cents: 0, refund_cents: 0 })),
      total_replays: [...ctx.tables.sessionReplays.values()].filter((r) => r.projectId === projectId).length,
      recent_replays: [...ctx.tables.sessionReplays.values()].filter(
        (r) => r.projectId === projectId && r.lastEventAtMillis >= ctx.now - 7 * DAY,
      ).length,
      visitors: 0,
      avg_session_seconds: 0,
      online_live: onlineLive,
      revenue_per_visitor: 0,
      total_revenue_cents: 0,
      top_referrers: [],
      top_region: top ? { country_code: top.country_code, region_code: top.region_code, count: top.users.size } : null,
    },
  };
}

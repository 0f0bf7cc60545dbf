import type { MetricsJson } from "@authsim/sdk/contract";
import type { UserRecord } from "../../store/records.ts";
import { serverUserView } from "../../views/users.ts";
import type { OpContext } from "../context.ts";
import {
  dailyActiveSplit,
  dailyActiveUsers,
  monthlyActiveUsers,
  onlineUsers,
  tokenRefreshesOf,
  topRegion,
  usersByCountry,
} from "./metrics-activity.ts";
import { emailOverview } from "./metrics-email.ts";
import { webAnalytics } from "./metrics-web.ts";
import { bump, dailySeries, inWindow, isoDay, metricsWindow, type MetricsWindow } from "./metrics-window.ts";

/**
 * GET /internal/metrics (spec §7 Admin): the dashboard's numbers, from the same sources as the real route. Users, teams,
 * login methods and emails from the project's tables; activity (daily and monthly active users, online users,
 * countries, the top region) from the `$token-refresh` analytics events (metrics-activity.ts); page views, clicks,
 * visitors and referrers from the uploaded `$page-view` / `$click` events (metrics-web.ts); revenue from paid
 * subscription invoices. Anonymous users count only with include_anonymous. Subscription counts (the real service's
 * own subscription table) are not derived yet: they stay zero, in the real shape. Team activity is read from events
 * with a team, which the emulator's events never have (nor do the real service's token refreshes today).
 */

const RECENTLY_REGISTERED = 100;
const RECENTLY_ACTIVE = 5;
/** The invoice statuses the real route counts as revenue. */
const REVENUE_STATUSES = new Set(["paid", "succeeded"]);

export function computeMetrics(ctx: OpContext, projectId: string, includeAnonymous: boolean): MetricsJson {
  const w = metricsWindow(ctx.now);
  const allUsers = [...ctx.tables.users.values()].filter((u) => u.projectId === projectId);
  const users = allUsers.filter((u) => includeAnonymous || !u.isAnonymous);
  const refreshes = tokenRefreshesOf(ctx, projectId);
  const signUps = new Map<string, number>();
  for (const u of users) if (inWindow(w, u.signedUpAtMillis)) bump(signUps, isoDay(u.signedUpAtMillis));
  const nonAnonymous = allUsers.filter((u) => !u.isAnonymous);
  // Verified: some email of the user's is verified, as the real route asks of its contact channels.
  const withVerifiedChannel = new Set(
    [...ctx.tables.contactChannels.values()]
      .filter((c) => c.projectId === projectId && c.type === "email" && c.isVerified)
      .map((c) => c.userId),
  );
  const verified = nonAnonymous.filter((u) => u.primaryEmailVerified || withVerifiedChannel.has(u.id)).length;
  const newest = (key: (u: UserRecord) => number, n: number) =>
    [...users]
      .sort((a, b) => key(b) - key(a) || (a.id < b.id ? -1 : 1))
      .slice(0, n)
      .map((u) => serverUserView(ctx.tables, u));
  const revenue = revenueOf(ctx, projectId, w);
  const web = webAnalytics(ctx, projectId, w, includeAnonymous);
  const replays = replayFigures(ctx, projectId, w);
  const zeros = () => dailySeries(w, new Map());
  return {
    total_users: users.length,
    daily_users: dailySeries(w, signUps),
    daily_active_users: dailyActiveUsers(refreshes, w, includeAnonymous),
    users_by_country: usersByCountry(refreshes, includeAnonymous),
    recently_registered: newest((u) => u.signedUpAtMillis, RECENTLY_REGISTERED),
    recently_active: newest((u) => u.lastActiveAtMillis, RECENTLY_ACTIVE),
    login_methods: loginMethods(ctx, projectId),
    auth_overview: {
      // Verified and unverified count non-anonymous users always; anonymous users are their own bucket.
      verified_users: verified,
      unverified_users: nonAnonymous.length - verified,
      anonymous_users: allUsers.length - nonAnonymous.length,
      total_teams: [...ctx.tables.teams.values()].filter((t) => t.projectId === projectId).length,
      mau: monthlyActiveUsers(refreshes, w, includeAnonymous),
      total_users_filtered: users.length,
      daily_active_users_split: dailyActiveSplit(refreshes, w, includeAnonymous),
      daily_active_teams_split: { total: zeros(), new: zeros(), retained: zeros(), reactivated: zeros() },
    },
    payments_overview: {
      subscriptions_by_status: {},
      active_subscription_count: 0,
      total_one_time_purchases: 0,
      total_orders: revenue.invoices,
      revenue_cents: revenue.totalCents,
      mrr_cents: revenue.windowCents,
      checkout_conversion_rate:
        revenue.invoices > 0 ? Number(((revenue.paidInvoices / revenue.invoices) * 100).toFixed(2)) : 0,
      daily_subscriptions: zeros(),
    },
    email_overview: emailOverview(ctx, projectId, w),
    analytics_overview: {
      daily_page_views: web.daily_page_views,
      daily_clicks: web.daily_clicks,
      daily_visitors: web.daily_visitors,
      daily_revenue: w.days.map((date) => ({ date, new_cents: revenue.daily.get(date) ?? 0, refund_cents: 0 })),
      total_replays: replays.total,
      recent_replays: replays.recent,
      visitors: web.visitors,
      avg_session_seconds: replays.avgSessionSeconds,
      online_live: onlineUsers(refreshes, w, ctx.now, includeAnonymous),
      revenue_per_visitor: web.visitors > 0 ? Number((revenue.totalCents / 100 / web.visitors).toFixed(2)) : 0,
      total_revenue_cents: revenue.totalCents,
      top_referrers: web.top_referrers,
      top_region: topRegion(refreshes, w, includeAnonymous),
    },
  };
}

/**
 * Sign-in methods as the real route counts them: one per auth method a user has (so a user with a password and an
 * OTP counts in both), OAuth methods by their provider id; anonymous users have none.
 */
function loginMethods(ctx: OpContext, projectId: string): { method: string; count: number }[] {
  const counts = new Map<string, number>();
  for (const u of ctx.tables.users.values()) {
    if (u.projectId !== projectId) continue;
    if (u.passwordHash !== null) bump(counts, "password");
    if (u.passkeyAuthEnabled) bump(counts, "passkey");
    if (u.otpAuthEnabled) bump(counts, "otp");
  }
  for (const a of ctx.tables.oauthAccounts.values())
    if (a.projectId === projectId && a.allowSignIn) bump(counts, a.providerConfigId.toLowerCase());
  return [...counts].map(([method, count]) => ({ method, count }));
}

/** Paid subscription invoices: all-time and in-window revenue, per day, and the conversion counts. */
function revenueOf(ctx: OpContext, projectId: string, w: MetricsWindow) {
  const daily = new Map<string, number>();
  let totalCents = 0;
  let windowCents = 0;
  let invoices = 0;
  let paidInvoices = 0;
  for (const invoice of ctx.tables.subscriptionInvoices.values()) {
    if (invoice.projectId !== projectId) continue;
    invoices++;
    if (invoice.status === null || !REVENUE_STATUSES.has(invoice.status)) continue;
    paidInvoices++;
    totalCents += invoice.amountTotal;
    if (invoice.createdAtMillis >= w.since) {
      windowCents += invoice.amountTotal;
      bump(daily, isoDay(invoice.createdAtMillis), invoice.amountTotal);
    }
  }
  return { daily, totalCents, windowCents, invoices, paidInvoices };
}

/** Session replays: all, those started in the window, and their average length in seconds (one decimal). */
function replayFigures(ctx: OpContext, projectId: string, w: MetricsWindow) {
  const replays = [...ctx.tables.sessionReplays.values()].filter((r) => r.projectId === projectId);
  const recent = replays.filter((r) => r.startedAtMillis >= w.since);
  const avgMillis =
    recent.length === 0
      ? 0
      : recent.reduce((sum, r) => sum + Math.max(0, r.lastEventAtMillis - r.startedAtMillis), 0) / recent.length;
  return { total: replays.length, recent: recent.length, avgSessionSeconds: Number((avgMillis / 1000).toFixed(1)) };
}

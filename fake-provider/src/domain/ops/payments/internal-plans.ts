import { INTERNAL_PROJECT_ID } from "@authsim/sdk/contract";
import { knownError } from "../../errors/known-error.ts";
import type { TeamRecord } from "../../store/records.ts";
import { deepFreeze } from "../../store/table.ts";
import type { OpContext } from "../context.ts";
import { getWrittenOverride, setOverride } from "../config/config-layers.ts";
import { quantityOf } from "./items.ts";
import { configuredProducts, findItem, offerOf } from "./payments-config.ts";
import { grantOffer } from "./purchases.ts";

/**
 * The `internal` project sells plans to the teams that own projects (the real service's own pricing, which its
 * dashboard reads through the payments API): a "plans" product line of team products, each including a number of
 * dashboard admin seats and other limits. Every team made in the internal project starts on the free plan, and a
 * team may not gain more members than it has seats (accepting an invitation checks it).
 */

export const SEATS_ITEM = "dashboard_admins";
const FREE_PLAN = "free";
/** The real service's count for "no limit". */
const UNLIMITED = 1_000_000_000;

const limitItems = {
  [SEATS_ITEM]: "Dashboard Admins",
  auth_users: "Auth Users",
  emails_per_month: "Emails per Month",
  analytics_timeout_seconds: "Analytics Timeout (seconds)",
  analytics_events: "Analytics Events",
} as const;
type Limits = Record<keyof typeof limitItems, number>;

const plans: { id: string; displayName: string; usd: string; priceId: string; limits: Limits }[] = [
  {
    id: FREE_PLAN,
    displayName: "Free",
    usd: "0",
    priceId: "free-monthly",
    limits: {
      dashboard_admins: 1,
      auth_users: 10_000,
      emails_per_month: 1_000,
      analytics_timeout_seconds: 10,
      analytics_events: 100_000,
    },
  },
  {
    id: "team",
    displayName: "Team",
    usd: "49",
    priceId: "monthly",
    limits: {
      dashboard_admins: 4,
      auth_users: 50_000,
      emails_per_month: 25_000,
      analytics_timeout_seconds: 60,
      analytics_events: 500_000,
    },
  },
  {
    id: "growth",
    displayName: "Growth",
    usd: "299",
    priceId: "monthly",
    limits: {
      dashboard_admins: UNLIMITED,
      auth_users: UNLIMITED,
      emails_per_month: 25_000,
      analytics_timeout_seconds: 300,
      analytics_events: 1_000_000,
    },
  },
];

const included = (limits: Partial<Limits>) =>
  Object.fromEntries(
    Object.entries(limits).map(([item, quantity]) => [
      item,
      { quantity, repeat: "never", expires: "when-purchase-expires" },
    ]),
  );

/** The internal project's plans as config override keys (the camel-case config shape the config API reads back). */
export function internalPlansOverride(): Record<string, unknown> {
  const keys: Record<string, unknown> = {
    "payments.productLines.plans": { displayName: "Plans", customerType: "team" },
  };
  for (const [id, displayName] of Object.entries(limitItems))
    keys[`payments.items.${id}`] = { displayName, customerType: "team" };
  for (const plan of plans) {
    keys[`payments.products.${plan.id}`] = {
      productLineId: "plans",
      displayName: plan.displayName,
      customerType: "team",
      serverOnly: false,
      stackable: false,
      prices: {
        [plan.priceId]: {
          USD: plan.usd,
          interval: [1, "month"],
          ...(plan.id === FREE_PLAN ? {} : { serverOnly: false }),
        },
      },
      includedItems: included(plan.limits),
    };
  }
  keys["payments.products.extra-seats"] = {
    productLineId: "plans",
    displayName: "Extra Seats",
    customerType: "team",
    serverOnly: false,
    stackable: true,
    prices: { monthly: { USD: "29", interval: [1, "month"], serverOnly: false } },
    includedItems: included({ dashboard_admins: 1 }),
    isAddOnTo: { team: true, growth: true },
  };
  return keys;
}

/**
 * The plans' keys, built once for the process and frozen: every provider's seed stores the same values (a record is
 * never changed in place, and forks already share theirs frozen), where building them again was a tenth of a fresh
 * provider's seed (issue 30).
 */
let seededPlans: Record<string, unknown> | null = null;

/** Seeds the plans into the internal project's branch config (under anything already there). */
export function seedInternalPlans(ctx: Pick<OpContext, "tables">): void {
  if (!seededPlans) {
    seededPlans = internalPlansOverride();
    deepFreeze(seededPlans);
  }
  // A level with nothing yet stores the shared plans object itself, so its flat form is made once for the process.
  const old = getWrittenOverride(ctx, INTERNAL_PROJECT_ID, "branch");
  setOverride(
    ctx,
    INTERNAL_PROJECT_ID,
    "branch",
    Object.keys(old).length === 0 ? seededPlans : { ...seededPlans, ...old },
  );
}

/**
 * A new team of the internal project gets the free plan: a subscription of the "free" product, moving no money (the
 * real service records it as a test-mode subscription). Only when the config still has a free team plan in a line.
 */
export function startOnFreePlan(ctx: OpContext, team: TeamRecord): void {
  if (team.projectId !== INTERNAL_PROJECT_ID) return;
  const project = ctx.tables.projects.get(team.projectId);
  const free = project && configuredProducts(ctx, project).find((p) => p.id === FREE_PLAN);
  if (!free || free.customerType !== "team" || free.productLineId === null) return;
  const offer = offerOf(free);
  grantOffer(
    ctx,
    team.projectId,
    { type: "team", id: team.id },
    {
      offerId: FREE_PLAN,
      offer,
      priceId: Object.keys(offer.prices)[0] ?? null,
      quantity: 1,
      charged: null,
      testMode: true,
    },
  );
}

/**
 * Joining a team of the internal project takes a seat: with `members` members already, one more needs more than
 * `members` dashboard_admins (ITEM_QUANTITY_INSUFFICIENT_AMOUNT charging -1, as the real service words it).
 */
export function assertSeatAvailable(ctx: OpContext, teamId: string, members: number): void {
  const project = ctx.tables.projects.get(INTERNAL_PROJECT_ID);
  if (!project || ctx.tables.teams.get(teamId)?.projectId !== INTERNAL_PROJECT_ID) return;
  if (!findItem(ctx, project, SEATS_ITEM)) throw knownError("ITEM_NOT_FOUND", { item_id: SEATS_ITEM });
  if (members + 1 > quantityOf(ctx, INTERNAL_PROJECT_ID, { type: "team", id: teamId }, SEATS_ITEM)) {
    throw knownError("ITEM_QUANTITY_INSUFFICIENT_AMOUNT", { item_id: SEATS_ITEM, customer_id: teamId, quantity: -1 });
  }
}

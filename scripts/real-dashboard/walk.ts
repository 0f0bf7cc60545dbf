import type { Page } from "playwright-core";
import type { ControlClient } from "@authsim/sdk/emulator";

/**
 * Walking the real dashboard page by page as an admin would, recording for each page what a person would notice and
 * what authsim answered: errors thrown in the page, console errors, and every answer of authsim's API of 400 or more.
 */

/** The dashboard's sidebar pages (its apps' navigation items and the fixed entries), relative to /projects/<id>/. */
export const sidebarPages = [
  { name: "Overview", path: "" },
  { name: "Users", path: "users" },
  { name: "Dashboards", path: "dashboards" },
  { name: "Explore Apps", path: "apps" },
  { name: "Auth Methods", path: "auth-methods" },
  { name: "Sign-up Rules", path: "sign-up-rules" },
  { name: "Onboarding", path: "onboarding" },
  { name: "Teams", path: "teams" },
  { name: "Team Settings", path: "team-settings" },
  { name: "Project Permissions", path: "project-permissions" },
  { name: "Team Permissions", path: "team-permissions" },
  { name: "API Keys", path: "api-keys-app" },
  { name: "Product Lines", path: "payments/product-lines" },
  { name: "Products & Items", path: "payments/products" },
  { name: "Customers", path: "payments/customers" },
  { name: "Transactions", path: "payments/transactions" },
  { name: "Payouts", path: "payments/payouts" },
  { name: "Payments Settings", path: "payments/settings" },
  { name: "Emails: Sent", path: "email-sent" },
  { name: "Emails: Drafts", path: "email-drafts" },
  { name: "Emails: Templates", path: "email-templates" },
  { name: "Emails: Themes", path: "email-themes" },
  { name: "Email Settings", path: "email-settings" },
  { name: "Data Vault", path: "data-vault" },
  { name: "Webhooks", path: "webhooks" },
  { name: "Launch Checklist", path: "launch-checklist" },
  { name: "Analytics: Tables", path: "analytics/tables" },
  { name: "Analytics: Replays", path: "analytics/replays" },
  { name: "Analytics: Queries", path: "analytics/queries" },
  { name: "Project Settings", path: "project-settings" },
  { name: "Project Keys", path: "project-keys" },
  { name: "Trusted Domains", path: "domains" },
] as const;

export interface FailedAnswer {
  method: string;
  /** The path under /api/v1 and its query, as authsim's request log masks them. */
  path: string;
  status: number | null;
  /** The known error's code, else the request log's last reason. */
  what: string;
}

export interface PageRecord {
  pageErrors: string[];
  consoleErrors: string[];
  /** authsim's answers of 400 or more to the page's requests, the dashboard's server's included. */
  failed: FailedAnswer[];
}

/**
 * Records a page's errors from now on, and reads authsim's request log for what it answered meanwhile (the log sees
 * the calls the dashboard's server makes too, which the browser does not). `take()` hands them over and starts afresh.
 */
export function recordPage(page: Page, controls: ControlClient): { take(): Promise<PageRecord> } {
  let errors = { pageErrors: [] as string[], consoleErrors: [] as string[] };
  let afterSeq: number | undefined;
  page.on("pageerror", (error) => errors.pageErrors.push(error.message.split("\n")[0]!));
  page.on("console", (message) => {
    if (message.type() === "error") errors.consoleErrors.push(message.text().slice(0, 300));
  });
  const failedSince = async (): Promise<FailedAnswer[]> => {
    const { items } = await controls.call("requests", { query: { afterSeq, limit: 1000 } });
    for (const entry of items) afterSeq = Math.max(afterSeq ?? 0, entry.seq);
    return items
      .filter((entry) => entry.status === null || entry.status >= 400)
      .map((entry) => ({
        method: entry.method,
        path: entry.path + (entry.query ? `?${entry.query}` : ""),
        status: entry.status,
        what: entry.knownError ?? entry.why.at(-1) ?? "",
      }));
  };
  return {
    async take() {
      const taken = { ...errors, failed: await failedSince() };
      errors = { pageErrors: [], consoleErrors: [] };
      return taken;
    },
  };
}

/**
 * Opens a dashboard page and waits until it settled: the network idle and the dashboard's loading indicators gone.
 * A page that threw during render shows the global error (a lone spinner that sends the person to "/"), which the
 * page errors record.
 */
export async function openPage(page: Page, url: string, timeoutMillis = 90_000): Promise<void> {
  // Generous for the document: the dashboard's server renders it on a machine Chromium and authsim load too.
  await page.goto(url, { waitUntil: "domcontentloaded", timeout: timeoutMillis });
  // Bounded: the kit's analytics batches may keep the network from ever going idle.
  await page.waitForLoadState("networkidle", { timeout: 30_000 }).catch(() => undefined);
}

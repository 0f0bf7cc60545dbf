import type { Page, Response } from "playwright-core";

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
  path: string;
  status: number;
  /** The known error's code (x-stack-known-error), or the start of a plain-text body. */
  what: string;
}

export interface PageRecord {
  pageErrors: string[];
  consoleErrors: string[];
  failed: FailedAnswer[];
}

/** Records a page's errors and authsim's failed answers from now on; `take()` hands them over and starts afresh. */
export function recordPage(page: Page, apiUrl: string): { take(): PageRecord } {
  let record: PageRecord = { pageErrors: [], consoleErrors: [], failed: [] };
  page.on("pageerror", (error) => record.pageErrors.push(error.message.split("\n")[0]!));
  page.on("console", (message) => {
    if (message.type() === "error") record.consoleErrors.push(message.text().slice(0, 300));
  });
  page.on("response", (response: Response) => {
    if (!response.url().startsWith(apiUrl) || response.status() < 400) return;
    const current = record;
    const url = new URL(response.url());
    const entry: FailedAnswer = {
      method: response.request().method(),
      path: url.pathname + url.search,
      status: response.status(),
      what: response.headers()["x-stack-known-error"] ?? "",
    };
    current.failed.push(entry);
    if (!entry.what) {
      void response.text().then(
        (text) => (entry.what = text.slice(0, 120)),
        () => undefined,
      );
    }
  });
  return {
    take() {
      const taken = record;
      record = { pageErrors: [], consoleErrors: [], failed: [] };
      return taken;
    },
  };
}

/**
 * Opens a dashboard page and waits until it settled: the network idle and the dashboard's loading indicators gone.
 * A page that threw during render shows the global error (a lone spinner that sends the person to "/"), which the
 * page errors record.
 */
export async function openPage(page: Page, url: string, timeoutMillis = 30_000): Promise<void> {
  await page.goto(url, { waitUntil: "domcontentloaded", timeout: timeoutMillis });
  await page.waitForLoadState("networkidle", { timeout: timeoutMillis }).catch(() => undefined);
}

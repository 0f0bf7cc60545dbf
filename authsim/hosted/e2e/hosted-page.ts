import { join } from "node:path";
import type { Page } from "playwright-core";

/**
 * A person at the hosted pages: the few gestures every step repeats (sign up, sign in, sign out, who does the home page
 * say is signed in), written once against the pages' accessible names.
 */
export interface HostedPage {
  page: Page;
  /** The origin the pages were opened at (127.0.0.1 or localhost: cookies and passkeys are per host). */
  origin: string;
  shot(name: string): Promise<void>;
  whoami(): Promise<string | null>;
  /** Fills the sign-up form (of the project `projectId` picks, else the remembered one) and waits for the home page. */
  signUp(email: string, password: string, projectId?: string): Promise<void>;
  /** Fills the sign-in form and submits it (the caller waits for the outcome: home, an error, the MFA page). */
  submitSignIn(email: string, password: string): Promise<void>;
  /** Through the user button's menu, back to the signed-out home page. */
  signOut(userButtonName: string): Promise<void>;
}

export function hostedPage(page: Page, origin: string, artifacts: string): HostedPage {
  const whoami = () => page.getByTestId("whoami").textContent();
  return {
    page,
    origin,
    shot: async (name) => {
      await page.screenshot({ path: join(artifacts, `hosted-${name}.png`), fullPage: true });
    },
    whoami,
    async signUp(email, password, projectId) {
      await page.goto(`${origin}/handler/sign-up${projectId ? `?project_id=${encodeURIComponent(projectId)}` : ""}`);
      await page.getByLabel("Email", { exact: true }).fill(email);
      await page.getByLabel("Password", { exact: true }).fill(password);
      await page.getByLabel("Repeat password", { exact: true }).fill(password);
      await page.getByRole("button", { name: "Sign up" }).click();
      await page.waitForURL(`${origin}/app`);
      await page.getByText(`Signed in as ${email}`).waitFor();
    },
    async submitSignIn(email, password) {
      if (!page.url().startsWith(`${origin}/handler/sign-in`)) await page.goto(`${origin}/handler/sign-in`);
      await page.getByLabel("Email", { exact: true }).fill(email);
      await page.getByLabel("Password", { exact: true }).fill(password);
      await page.getByRole("button", { name: "Sign in", exact: true }).click();
    },
    async signOut(userButtonName) {
      await page.goto(`${origin}/app`);
      await page.getByRole("button", { name: userButtonName }).click();
      await page.getByRole("list", { name: "Account menu" }).getByRole("link", { name: "Sign out" }).click();
      await page.waitForURL(`${origin}/app`);
      await page.getByText("Not signed in").waitFor();
    },
  };
}

/** Who the mock identity provider's prefilled form signs up (its values are generated: read from the page). */
export interface IdpAccount {
  email: string;
  name: string;
  accountId: string;
}

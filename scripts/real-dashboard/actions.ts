import type { Page } from "playwright-core";
import type { SmtpConfigOptions } from "@authsim/sdk";

/**
 * The real dashboard's main actions as a person does them: the buttons, fields and dialogs of its pages (read in its
 * sources, apps/dashboard). Each returns once the dashboard shows the action done; the browser test then checks the
 * result through authsim's API.
 */

/** The new-project wizard's first two steps: "Create New", then the apps picked on its app-choice step. */
export async function chooseApps(page: Page, apps: readonly string[]): Promise<void> {
  await page.getByText("Choose how you want to start").waitFor();
  await page.getByRole("button", { name: "Continue" }).click();
  await page.getByText("Select apps").waitFor();
  for (const name of apps) await page.getByRole("button", { name, exact: true }).click();
  await page.getByRole("button", { name: "Continue" }).click();
  // The wizard goes on to its sign-in methods once the apps are saved.
  await page.getByText("Configure authentication").waitFor({ timeout: 60_000 });
}

export async function createUser(page: Page, project: string, user: { email: string; name: string }): Promise<void> {
  await page.goto(`${project}/users`);
  await page.getByRole("button", { name: "Create User" }).click();
  const dialog = page.getByRole("dialog");
  await dialog.getByLabel("Primary email").fill(user.email);
  await dialog.getByLabel("Display name").fill(user.name);
  await dialog.getByRole("button", { name: "Create", exact: true }).click();
  await page.getByText(user.email).first().waitFor();
}

/** Flips a sign-in method's switch on the Auth Methods page and saves. */
export async function toggleAuthMethod(page: Page, project: string, method: string): Promise<void> {
  await page.goto(`${project}/auth-methods`);
  await page.getByRole("switch", { name: method }).click();
  await savingConfig(page, () => page.getByRole("button", { name: "Save changes" }).first().click());
}

/** Does what saves the project's config, and waits for authsim's answer to that save. */
async function savingConfig(page: Page, act: () => Promise<void>): Promise<void> {
  const saved = page.waitForResponse(
    (response) => response.request().method() === "PATCH" && response.url().includes("/internal/config/override"),
  );
  await act();
  await saved;
}

export async function addTrustedDomain(page: Page, project: string, domain: string): Promise<void> {
  await page.goto(`${project}/domains`);
  await page.getByRole("button", { name: "Add new domain" }).click();
  const dialog = page.getByRole("dialog");
  await dialog.getByLabel("Domain").fill(domain);
  await savingConfig(page, () => dialog.getByRole("button", { name: "Create", exact: true }).click());
}

/** Creates project keys and acknowledges the dialog that shows them once. */
export async function createProjectKeys(page: Page, project: string, description: string): Promise<void> {
  await page.goto(`${project}/project-keys`);
  await page.getByRole("button", { name: "Create Project Keys" }).click();
  const form = page.getByRole("dialog");
  await form.getByLabel("Description").fill(description);
  await form.getByRole("button", { name: "Create", exact: true }).click();
  await page.getByText("Here are your project keys").waitFor();
}

/**
 * "Start Setup" on a payments page: the country, then the payment provider's onboarding, which is authsim's page and
 * returns to the dashboard's payments page.
 */
export async function setUpPayments(page: Page, project: string): Promise<void> {
  await page.goto(`${project}/payments/products`);
  await page.getByRole("button", { name: "Start Setup" }).click();
  const dialog = page.getByRole("dialog");
  await dialog.getByRole("combobox").click();
  await page.getByRole("option", { name: /United States/ }).click();
  await dialog.getByRole("button", { name: "Continue" }).click();
  await page.getByRole("button", { name: "Continue onboarding" }).click();
  await page.getByRole("button", { name: "Complete onboarding" }).click();
  await page.waitForURL(`${project}/payments**`);
}

/** A free product for users, included by default, on the Create Product page. */
export async function createProduct(page: Page, project: string, product: { id: string; name: string }): Promise<void> {
  await page.goto(`${project}/payments/products/new`);
  await page.getByText("The customer of this product is an individual user").click();
  await page.getByPlaceholder("e.g., Pro Plan").fill(product.name);
  await page.getByPlaceholder("e.g., pro-plan").fill(product.id);
  await page.getByRole("button", { name: "Make Free" }).click();
  await page.getByRole("button", { name: "Create Product" }).click();
  await page.waitForURL((url) => !url.pathname.endsWith("/new"));
}

/** Email Settings → Custom SMTP (the dashboard sends a test email through it before saving). */
export async function configureSmtp(page: Page, project: string, server: SmtpConfigOptions): Promise<void> {
  await page.goto(`${project}/email-settings`);
  await page.getByText("Custom SMTP", { exact: true }).click();
  // The fields' labels are not tied to their inputs: the input that follows each label.
  const field = (label: string) =>
    page.locator(`xpath=//label[normalize-space()='${label}']/following-sibling::*[1]/descendant-or-self::input`);
  await page.getByPlaceholder("you@example.com").fill(server.senderEmail);
  await page.getByPlaceholder("Your App Name").fill(server.senderName);
  await field("Host").fill(server.host);
  await field("Port").fill(String(server.port));
  await field("Username").fill(server.username);
  await field("Password").fill(server.password);
  await page.getByRole("button", { name: "Save changes" }).click();
  await page.getByText("Email server updated").first().waitFor();
}

/** Email Templates → New Template; the dashboard then opens the template's editor. */
export async function createEmailTemplate(page: Page, project: string, name: string): Promise<void> {
  await page.goto(`${project}/email-templates`);
  await page.getByRole("button", { name: "New Template" }).click();
  const dialog = page.getByRole("dialog");
  await dialog.getByLabel("Template Name").fill(name);
  await dialog
    .getByRole("button", { name: /Save|Create|OK|Submit/ })
    .last()
    .click();
  await page.waitForURL(/\/email-templates\/[0-9a-f-]{36}$/);
}

/** Webhooks → Add new endpoint (through Svix's API, authsim's under its own origin); the list then shows it. */
export async function addWebhookEndpoint(page: Page, project: string, url: string): Promise<void> {
  await page.goto(`${project}/webhooks`);
  await page.getByRole("button", { name: "Add new endpoint" }).click();
  const dialog = page.getByRole("dialog");
  await dialog.getByLabel("URL").fill(url);
  await dialog.getByLabel("Description").fill("from the dashboard");
  await dialog.getByRole("button", { name: "Create", exact: true }).click();
  await page.getByText("Endpoint created").waitFor();
  await page.getByRole("button", { name: "Close" }).first().click();
  await page.getByText(url).first().waitFor();
}

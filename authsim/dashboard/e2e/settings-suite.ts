import { mkdir } from "node:fs/promises";
import type { Page } from "playwright-core";
import { beforeAll, expect, it } from "vitest";
import type { LaunchedBrowser } from "@authsim/fake-provider/testing";
import type { StartedCli } from "authsim/testing";
import { PASSWORD, projectApi, type ProjectKeys } from "./project-api.ts";
import { saveScreenshot, screenshotsDir } from "./screenshot.ts";

/**
 * The Settings tab in real Chromium against the real dev server: a project made in the dashboard, each setting changed
 * there (read in the diff, then applied) and seen to act through the API an app uses (and the hosted pages); refusals
 * show the service's own message, with screenshots into authsim/test-artifacts/screenshots/. Registered inside
 * dashboard.browser.test.ts, so it runs on that file's server and browser (one of each for the whole dashboard); it
 * answers the project it made, which the fit suite (fit-suite.ts) goes on with.
 */
export interface SuiteEnv {
  cli: StartedCli;
  browser: LaunchedBrowser;
  page: Page;
  pageErrors: string[];
}

/** A refused change is a 4xx the page shows; Chromium logs it too, which is not an error of the page. */
export const isRefusalLog = (error: string) =>
  /^console: Failed to load resource: the server responded with a status of 4\d\d/.test(error);

export function settingsSuite(env: () => SuiteEnv): () => ProjectKeys {
  let cli: StartedCli;
  let browser: LaunchedBrowser;
  let page: Page;
  let project: ProjectKeys;
  const { call, newUser } = projectApi(
    () => cli.url,
    () => project,
  );
  const settings = () => page.getByRole("main");
  const section = (title: string) =>
    settings()
      .locator("section.card")
      .filter({ has: page.getByRole("heading", { name: title, exact: true }) });
  const diff = () => page.getByTestId("settings-diff");
  /**
   * Applies the pending diff and waits for the service's answer (a notice, or the refusal). An apply is several
   * requests in a row; with the rest of `npm test` rendering emails on the other core, it has taken past the page's
   * 15 s default in CI, so the answer gets 45 s.
   */
  const apply = async (expected: "applied" | "refused") => {
    await page.getByRole("button", { name: "Apply changes" }).click();
    if (expected === "applied")
      await page
        .getByRole("status")
        .getByText(/^Applied \d+ changes?\.$/)
        .waitFor({ timeout: 45_000 });
    else await page.getByTestId("settings-refusal").waitFor({ timeout: 45_000 });
  };
  const authorize = (redirect: string) =>
    call(
      "client",
      "GET",
      `/auth/oauth/authorize/gitlab?${new URLSearchParams({
        client_id: project.id,
        client_secret: project.publishable_client_key,
        redirect_uri: redirect,
        scope: "legacy",
        state: "app-state",
        grant_type: "authorization_code",
        code_challenge: "x".repeat(43),
        code_challenge_method: "plain",
        response_type: "code",
        type: "authenticate",
        error_redirect_url: redirect,
        // Authorize checks the URL the browser returns to after the callback (the redirect URI itself at the callback).
        after_callback_redirect_url: redirect,
      }).toString()}`,
    );

  beforeAll(async () => {
    await mkdir(screenshotsDir, { recursive: true });
    ({ cli, browser, page } = env());
  });

  it("makes a project, and turning sign-up off there refuses a sign-up through the API and on the hosted page", async () => {
    await page.goto(`${cli.url}/#projects`);
    await page.getByLabel("New project name").fill("Settings Lab");
    await page.getByRole("button", { name: "Create project" }).click();
    await page.getByRole("cell", { name: "Settings Lab" }).waitFor();
    const listed = (await (await fetch(`${cli.url}/__emulator/projects`)).json()) as {
      items: (ProjectKeys & { display_name: string })[];
    };
    project = listed.items.find((p) => p.display_name === "Settings Lab")!;
    expect(
      (await call("client", "POST", "/auth/password/sign-up", { email: "before@example.com", password: PASSWORD }))
        .status,
    ).toBe(200);

    await page.goto(`${cli.url}/#settings`);
    await page.getByRole("heading", { name: "Settings of Settings Lab" }).waitFor();
    await page.getByTestId("settings-diff-empty").waitFor();
    await page.getByLabel("Sign-up enabled").uncheck();
    expect(await diff().textContent()).toContain("auth.allowSignUp true → false");
    await page.getByText("The requests it sends").click();
    expect(await diff().locator("pre").textContent()).toContain(
      'PATCH /api/v1/internal/config/override/environment\n{\n  "auth.allowSignUp": false\n}',
    );
    await saveScreenshot(page, "dashboard-settings-diff-1280");
    await apply("applied");
    await page.getByTestId("settings-diff-empty").waitFor();

    const refused = await call("client", "POST", "/auth/password/sign-up", {
      email: "after@example.com",
      password: PASSWORD,
    });
    expect([refused.status, refused.code]).toEqual([400, "SIGN_UP_NOT_ENABLED"]);
    const hosted = await browser.context.newPage();
    await hosted.goto(`${cli.url}/handler/sign-up?project_id=${project.id}`);
    await hosted.getByText(/sign-up is not enabled/i).waitFor();
    await saveScreenshot(hosted, "hosted-sign-up-disabled-1280");
    await hosted.close();
  });

  it("turns on OTP, passkeys, client team creation and user API keys, turns off passwords, and each acts", async () => {
    const userId = await newUser("ada@example.com", true);
    const session = await call("server", "POST", "/auth/sessions", { user_id: userId });
    const asUser = { "x-stack-access-token": session.body.access_token as string };
    const otp = () =>
      call("client", "POST", "/auth/otp/send-sign-in-code", {
        email: "ada@example.com",
        callback_url: `${cli.url}/handler/magic-link-callback`,
      });
    const passkey = () => call("client", "POST", "/auth/passkey/initiate-passkey-authentication", {});
    const team = () => call("client", "POST", "/teams", { display_name: "Ada's team", creator_user_id: "me" }, asUser);
    const apiKey = () =>
      call("client", "POST", "/user-api-keys", { user_id: "me", description: "ci", expires_at_millis: null }, asUser);
    const password = () =>
      call("client", "POST", "/auth/password/sign-in", { email: "ada@example.com", password: PASSWORD });
    expect((await otp()).status).toBe(403);
    expect((await passkey()).code).toBe("PASSKEY_AUTHENTICATION_NOT_ENABLED");
    // Client team creation off: the real handler's plain 403.
    expect(await team()).toMatchObject({ status: 403, body: "Client team creation is disabled for this project" });
    expect((await apiKey()).status).toBe(400);
    expect((await password()).status).toBe(200);

    await section("Auth methods").getByLabel("OTP / magic link").check();
    await section("Auth methods").getByLabel("Passkey").check();
    await section("Auth methods").getByLabel("Password").uncheck();
    await page.getByLabel("Users may create teams").check();
    await page.getByLabel("User API keys").check();
    const shown = await diff().textContent();
    for (const line of [
      "auth.otp.allowSignIn false → true",
      "auth.passkey.allowSignIn false → true",
      "auth.password.allowSignIn true → false",
      "teams.allowClientTeamCreation false → true",
      "apiKeys.enabled.user false → true",
    ]) {
      expect(shown).toContain(line);
    }
    await apply("applied");

    expect((await otp()).status).toBe(200);
    expect((await passkey()).status).toBe(200);
    expect((await team()).status).toBe(201);
    expect((await apiKey()).status).toBe(200);
    expect((await password()).code).toBe("PASSWORD_AUTHENTICATION_NOT_ENABLED");
  });

  it("adds GitLab with the app's own client and a trusted domain, and an OAuth authorize redirecting there is accepted", async () => {
    const redirect = "https://app.example.com/handler/oauth-callback";
    // Localhost is trusted (allow localhost is on), so the refusal is about the provider.
    const local = `${cli.url}/handler/oauth-callback`;
    expect((await authorize(local)).code).toBe("OAUTH_PROVIDER_NOT_FOUND_OR_NOT_ENABLED");
    const oauth = section("OAuth providers");
    await oauth.getByLabel("New OAuth provider").selectOption("gitlab");
    await oauth.getByRole("button", { name: "Add provider" }).click();
    // A new project has GitHub (shared keys) and Google; GitLab gets the app's own OAuth client.
    const gitlab = oauth.locator('fieldset[data-entry="auth.oauth.providers.gitlab"]');
    await gitlab.getByLabel("Shared keys").uncheck();
    await gitlab.getByLabel("gitlab client id").fill("gl-client-id");
    await gitlab.getByLabel("gitlab client secret").fill("gl-client-secret");
    expect(await diff().textContent()).toContain('auth.oauth.providers.gitlab.clientId (absent) → "gl-client-id"');
    await apply("applied");
    // The provider is on; the app's domain is not trusted yet.
    expect((await authorize(local)).status).toBe(307);
    expect((await authorize(redirect)).code).toBe("REDIRECT_URL_NOT_WHITELISTED");

    await page.getByLabel("New trusted domain").fill("https://app.example.com");
    await page.getByRole("button", { name: "Add domain" }).click();
    expect(await diff().textContent()).toMatch(
      /domains\.trustedDomains\.[0-9a-f-]{36}\.baseUrl \(absent\) → "https:\/\/app\.example\.com"/,
    );
    await apply("applied");

    const accepted = await authorize(redirect);
    expect(accepted.status).toBe(307);
    expect(accepted.location).toContain("/__emulator/oauth/authorize/gitlab");
    expect((await authorize("https://elsewhere.example.net/handler/oauth-callback")).code).toBe(
      "REDIRECT_URL_NOT_WHITELISTED",
    );
    const admin = await call("admin", "GET", "/internal/projects/current");
    const config = admin.body.config as { oauth_providers: unknown[]; domains: unknown[] };
    expect(config.oauth_providers).toContainEqual(
      expect.objectContaining({
        id: "gitlab",
        type: "standard",
        client_id: "gl-client-id",
        client_secret: "gl-client-secret",
      }),
    );
    expect(config.domains).toEqual([
      expect.objectContaining({ domain: "https://app.example.com", handler_path: "/handler" }),
    ]);
  });

  it("shows the production-mode checks on the draft, and production mode is stored as the real service stores it", async () => {
    const domains = section("Trusted domains");
    await domains.getByLabel("Production mode").check();
    expect(await diff().textContent()).toContain("is_production_mode false → true");
    // The page runs the admin kit's production checks on the draft before anything is sent.
    const checks = page.getByTestId("production-checks");
    expect(await checks.textContent()).toContain(
      "Localhost is not allowed in production mode, turn off Allow localhost in project settings",
    );
    await domains.getByLabel("Allow localhost").uncheck();
    await page.getByLabel("New trusted domain").fill("http://staging.example.com");
    await page.getByRole("button", { name: "Add domain" }).click();
    expect(await checks.textContent()).toContain(
      "Trusted domain http://staging.example.com does not use HTTPS, which production mode requires",
    );
    expect(await checks.textContent()).not.toContain("Localhost is not allowed");
    await domains.getByRole("button", { name: "Remove http://staging.example.com" }).click();
    expect(await checks.count()).toBe(0);
    // The real backend stores the setting whatever the domains (only the kit's checks flag them).
    await apply("applied");
    expect((await call("admin", "GET", "/internal/projects/current")).body.is_production_mode).toBe(true);
    await domains.getByLabel("Production mode").uncheck();
    await domains.getByLabel("Allow localhost").check();
    await apply("applied");
    expect((await call("admin", "GET", "/internal/projects/current")).body.is_production_mode).toBe(false);
  });

  it("shows the service's refusal of a change and keeps the draft: a product in a product line that does not exist", async () => {
    const payments = section("Payments");
    await payments.getByLabel("New product id").fill("orphan");
    await payments.getByRole("button", { name: "Add product" }).click();
    await payments
      .locator('fieldset[data-entry="payments.products.orphan"]')
      .getByLabel("Product line")
      .fill("no-such-line");
    await apply("refused");
    expect(await page.getByTestId("settings-refusal").textContent()).toBe(
      'PATCH /internal/config/override/environment was refused: 400: Product "orphan" specifies product line ID "no-such-line", but that product line does not exist',
    );
    await saveScreenshot(page, "dashboard-settings-refused-1280");
    const config = (await call("admin", "GET", "/internal/config")).body as {
      payments?: { products?: Record<string, unknown> };
    };
    expect(config.payments?.products ?? {}).not.toHaveProperty("orphan");
    await page.getByRole("button", { name: "Discard" }).click();
  });

  it("sets the project's own SMTP server, a theme and a default permission, and the admin API and a new user show them", async () => {
    expect((await call("admin", "POST", "/project-permission-definitions", { id: "read_notes" })).status).toBe(201);
    await page.getByRole("button", { name: "Reload" }).click();
    const email = section("Email");
    await email.getByLabel("Shared email server").uncheck();
    await email.getByLabel("SMTP host").fill("smtp.example.com");
    await email.getByLabel("SMTP port").fill("2525");
    await email.getByLabel("SMTP username").fill("mailer");
    await email.getByLabel("SMTP password").fill("mail-secret");
    await email.getByLabel("Sender name").fill("Settings Lab");
    await email.getByLabel("Sender email").fill("noreply@example.com");
    const themes = (await call("admin", "GET", "/internal/email-themes")).body.themes as {
      id: string;
      display_name: string;
    }[];
    const other = themes.find((t) => !/light/i.test(t.display_name))!;
    await email.getByLabel("Email theme").selectOption(other.id);
    await section("Default permissions")
      .getByRole("group", { name: "Every new user" })
      .getByLabel("read_notes")
      .check();
    expect(await diff().textContent()).toContain("config.user_default_permissions.read_notes (absent) → true");
    await apply("applied");

    const config = (await call("admin", "GET", "/internal/projects/current")).body.config as Record<string, unknown>;
    expect(config.email_config).toMatchObject({
      type: "standard",
      host: "smtp.example.com",
      port: 2525,
      username: "mailer",
      password: "mail-secret",
      sender_name: "Settings Lab",
      sender_email: "noreply@example.com",
    });
    expect(config.email_theme).toBe(other.id);
    const userId = await newUser("grace@example.com");
    const granted = await call("server", "GET", `/project-permissions?user_id=${userId}`);
    expect((granted.body.items as { id: string }[]).map((p) => p.id)).toContain("read_notes");
  });

  it("adds a payment item, a product that includes it and a vault store, and the server API uses them", async () => {
    const userId = await newUser("linus@example.com");
    expect((await call("server", "GET", `/payments/items/user/${userId}/gems`)).code).toBe("ITEM_NOT_FOUND");
    expect(
      (await call("server", "POST", "/data-vault/stores/tokens/set", { hashed_key: "k", encrypted_value: "v" })).code,
    ).toBe("DATA_VAULT_STORE_DOES_NOT_EXIST");
    const payments = section("Payments");
    await payments.getByLabel("New item id").fill("gems");
    await payments.getByLabel("New item name").fill("Gems");
    await payments.getByRole("button", { name: "Add item" }).click();
    await payments.getByLabel("New product id").fill("gem-pack");
    await payments.getByLabel("New product price in USD").fill("5");
    await payments.getByLabel("New product billing interval").selectOption("once");
    await payments.getByLabel("New product included item").selectOption("gems");
    await payments.getByLabel("New product included quantity").fill("10");
    await payments.getByRole("button", { name: "Add product" }).click();
    const vault = section("Data vault");
    await vault.getByLabel("New store id").fill("tokens");
    await vault.getByRole("button", { name: "Add store" }).click();
    await apply("applied");

    expect((await call("server", "GET", `/payments/items/user/${userId}/gems`)).body.quantity).toBe(0);
    expect((await call("server", "POST", `/payments/products/user/${userId}`, { product_id: "gem-pack" })).status).toBe(
      200,
    );
    expect((await call("server", "GET", `/payments/items/user/${userId}/gems`)).body.quantity).toBe(10);
    expect(
      (await call("server", "POST", "/data-vault/stores/tokens/set", { hashed_key: "k", encrypted_value: "v" })).status,
    ).toBe(200);
    expect(
      (await call("server", "POST", "/data-vault/stores/tokens/get", { hashed_key: "k" })).body.encrypted_value,
    ).toBe("v");
  });

  it("counts the project's users and emails and the requests on their tabs", async () => {
    const count = (tab: string) => page.getByTestId(`count-${tab}`).textContent().then(Number);
    const counts = async () =>
      (await (await fetch(`${cli.url}/__emulator/counts?project_id=${project.id}`)).json()) as {
        users: number;
        emails: number;
      };
    await expect.poll(async () => (await count("users")) === (await counts()).users, { timeout: 8_000 }).toBe(true);
    const users = await count("users");
    const emails = await count("outbox");
    const requests = await count("requests");
    // A new user, with a sign-in code by email (OTP is on by now): the counts follow (polled every 3 s).
    await newUser("margaret@example.com");
    expect(
      (
        await call("client", "POST", "/auth/otp/send-sign-in-code", {
          email: "margaret@example.com",
          callback_url: `${cli.url}/handler/magic-link-callback`,
        })
      ).status,
    ).toBe(200);
    await expect.poll(() => count("users"), { timeout: 8_000 }).toBe(users + 1);
    await expect.poll(() => count("outbox"), { timeout: 8_000 }).toBe(emails + 1);
    expect(await count("requests")).toBeGreaterThanOrEqual(requests + 2);
  });
  return () => project;
}

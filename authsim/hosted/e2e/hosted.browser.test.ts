import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { URI } from "otpauth";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, expect, it } from "vitest";
import { devProjectSeed as dev } from "@authsim/fixtures";
import { controlClient, type ControlClient } from "@authsim/sdk/emulator";
import { describeInChromium, launchChromium, type LaunchedBrowser } from "@authsim/fake-provider/testing";
import { startCli, type StartedCli } from "authsim/testing";
import { hostedPage, type HostedPage, type IdpAccount } from "./hosted-page.ts";
import { pageSweep, SIGNED_IN_PAGES, SIGNED_OUT_PAGES, type PageSweep } from "./page-sweep.ts";
import { serverApi, type ServerApi } from "./server-api.ts";

/**
 * The hosted sign-in pages of `npm start` (the real dev server, src/cli.ts on a loopback port) in Debian's Chromium, as
 * a person uses them: sign-up and email verification, sign-out, passwords (wrong, right, forgotten), a rename, a magic
 * link, a team, GitHub through the mock identity provider (deny and error too), an invitation, a passkey, TOTP, a second
 * project by `?project_id=`, first paint without "Loading…", and every page at 1280 and 360 px with no horizontal scroll.
 * One browser, one server, steps in order, no network. Screenshots: authsim/test-artifacts/hosted-*.png (steps) and
 * authsim/test-artifacts/screenshots/<page>-<width>.png (every page).
 */
const artifacts = fileURLToPath(new URL("../../test-artifacts/", import.meta.url));
const ADA = "ada@example.com";
const PASSWORD = "correct horse battery";
const NEW_PASSWORD = "a brand new secret";

describeInChromium("the hosted sign-in pages in Chromium", () => {
  let cli: StartedCli;
  let browser: LaunchedBrowser;
  let at: HostedPage;
  let page: Page;
  let controls: ControlClient;
  let server: ServerApi;
  let grace: IdpAccount;
  let sweep: PageSweep;
  const pageErrors: string[] = [];
  /** Every request the browser made off this machine: the pages must work with no network. */
  const offMachine: string[] = [];

  beforeAll(async () => {
    await mkdir(artifacts, { recursive: true });
    [cli, browser] = await Promise.all([startCli(), launchChromium()]);
    controls = controlClient({ baseUrl: cli.url });
    server = serverApi(cli.url);
    browser.context.on("request", (request) => {
      const { protocol, hostname } = new URL(request.url());
      if (protocol !== "data:" && hostname !== "127.0.0.1" && hostname !== "localhost") offMachine.push(request.url());
    });
    page = browser.context.pages()[0] ?? (await browser.context.newPage());
    page.setDefaultTimeout(10_000);
    page.on("pageerror", (error) => pageErrors.push(error.message));
    // An unexpected alert would block the page; record it so the step fails with its text.
    page.on("dialog", (dialog) => {
      pageErrors.push(`alert: ${dialog.message()}`);
      void dialog.dismiss();
    });
    at = hostedPage(page, cli.url, artifacts);
    sweep = pageSweep(page, join(artifacts, "screenshots"));
    // Whether "Loading…" was ever on the page since it was opened (the first paint must show the page itself).
    await browser.context.addInitScript(() => {
      const seen = () => document.documentElement.textContent?.includes("Loading…") ?? false;
      const flag = window as unknown as { authsimSawLoading: boolean };
      flag.authsimSawLoading = false;
      new MutationObserver(() => {
        if (seen()) flag.authsimSawLoading = true;
      }).observe(document, { subtree: true, childList: true, characterData: true });
    });
  });

  afterAll(async () => {
    await browser?.close();
    await cli?.stop();
  });

  it("paints each page from the config it was served with: no 'Loading…', no request for the config", async () => {
    const configRequests: string[] = [];
    const onRequest = (request: { url(): string }) => {
      if (new URL(request.url()).pathname === "/__emulator/hosted/config.json") configRequests.push(request.url());
    };
    browser.context.on("request", onRequest);
    for (const [path, heading] of [
      ["/handler/sign-in", "Sign in"],
      ["/handler/sign-up", "Create an account"],
      ["/app", "Hosted sign-in"],
    ] as const) {
      await page.goto(`${cli.url}${path}`);
      await page.getByRole("heading", { name: heading, exact: true }).waitFor();
      expect([
        path,
        await page.evaluate(() => (window as unknown as { authsimSawLoading: boolean }).authsimSawLoading),
      ]).toEqual([path, false]);
    }
    browser.context.off("request", onRequest);
    expect(configRequests).toEqual([]);
  });

  it("is announced by the dev server's banner, and signs a new user up", async () => {
    expect(cli.banner).toContain(`Hosted sign-in: ${cli.url}/handler/sign-in`);
    await page.goto(`${cli.url}/handler/sign-up`);
    await page.getByRole("heading", { name: "Create an account" }).waitFor();
    await at.shot("sign-up");
    await at.signUp(ADA, PASSWORD);
    expect(await at.whoami()).toBe(`Signed in as ${ADA}`);
    // The SDK's cookie store, on the emulator's own origin.
    const cookies = await browser.context.cookies(cli.url);
    expect(cookies.map((c) => c.name).sort()).toEqual(["stack-access", `stack-refresh-${dev.id}`]);
    const ada = await server.userByEmail(ADA);
    expect([ada.has_password, ada.display_name]).toEqual([true, null]);
    await at.shot("home-signed-in");
    expect(pageErrors).toEqual([]);
  });

  it("verifies the email through the link the sign-up sent", async () => {
    const mail = await controls.call("waitForEmail", {
      query: { to: ADA, kind: "email_verification", timeoutMs: 10_000 },
    });
    expect(mail.link?.startsWith(`${cli.url}/handler/email-verification?`)).toBe(true);
    await page.goto(mail.link!);
    await page.getByText("Your email is verified.").waitFor();
    await at.shot("email-verified");
    expect((await server.userByEmail(ADA)).primary_email_verified).toBe(true);
    await page.goto(`${cli.url}/app`);
  });

  it("shows a link's value the service refuses in the page, never in an alert, on a page no foreign site may frame", async () => {
    // A code far past the 256 characters the service accepts: its SCHEMA_ERROR, sent as the published kit sends it.
    const response = await page.goto(`${cli.url}/handler/email-verification?code=${"x".repeat(300)}`);
    expect([response?.headers()["x-frame-options"], response?.headers()["content-security-policy"]]).toEqual([
      "SAMEORIGIN",
      "frame-ancestors 'self'",
    ]);
    await expect.poll(() => page.getByRole("alert").textContent()).toMatch(/code must be at most 256 characters/);
    await at.shot("refused-link-in-page");
    expect(pageErrors).toEqual([]);
    await page.goto(`${cli.url}/app`);
  });

  it("signs out from the user button's menu", async () => {
    await page.getByRole("button", { name: ADA }).click();
    await at.shot("user-button-menu");
    await at.signOut(ADA);
    // The SDK's cookies are gone; the project choice stays (the verification link named the dev project).
    expect((await browser.context.cookies(cli.url)).map((c) => c.name)).toEqual(["authsim-hosted-project"]);
  });

  it("refuses a wrong password with the known error's message, then signs in with the right one", async () => {
    await at.submitSignIn(ADA, "not the password");
    await expect.poll(() => page.getByRole("alert").textContent()).toBe("Wrong e-mail or password.");
    expect(page.url()).toBe(`${cli.url}/handler/sign-in`);
    await at.shot("sign-in-wrong-password");
    await at.submitSignIn(ADA, PASSWORD);
    await page.waitForURL(`${cli.url}/app`);
    expect(await at.whoami()).toBe(`Signed in as ${ADA}`);
  });

  it("renames the user in account settings, and the home page shows the new name", async () => {
    await page.getByRole("link", { name: "Account settings" }).click();
    await page.getByRole("heading", { name: "Account settings" }).waitFor();
    await page.getByLabel("Display name", { exact: true }).fill("Ada Lovelace");
    await page.getByRole("button", { name: "Save" }).click();
    await page.getByText("Saved.").waitFor();
    await at.shot("account-settings");
    expect((await server.userByEmail(ADA)).display_name).toBe("Ada Lovelace");
    await page.goto(`${cli.url}/app`);
    expect(await at.whoami()).toBe("Signed in as Ada Lovelace");
    await page.getByRole("button", { name: "Ada Lovelace" }).waitFor();
  });

  it("resets a forgotten password through the emailed link, then signs in with the new one", async () => {
    await at.signOut("Ada Lovelace");
    await page.goto(`${cli.url}/handler/sign-in`);
    await page.getByRole("link", { name: "Forgot your password?" }).click();
    await page.getByLabel("Email", { exact: true }).fill(ADA);
    await page.getByRole("button", { name: "Send reset link" }).click();
    await page.getByText(/reset link is on its way/).waitFor();
    const mail = await controls.call("waitForEmail", { query: { to: ADA, kind: "password_reset", timeoutMs: 10_000 } });
    expect(mail.link?.startsWith(`${cli.url}/handler/password-reset?`)).toBe(true);
    await page.goto(mail.link!);
    await page.getByLabel("New password", { exact: true }).fill(NEW_PASSWORD);
    await page.getByLabel("Repeat password", { exact: true }).fill(NEW_PASSWORD);
    await page.getByRole("button", { name: "Set password" }).click();
    await page.getByText("Your password has been changed.").waitFor();
    await at.shot("password-reset");
    await page.getByRole("link", { name: "Sign in" }).click();
    await at.submitSignIn(ADA, PASSWORD);
    await expect.poll(() => page.getByRole("alert").textContent()).toBe("Wrong e-mail or password.");
    await at.submitSignIn(ADA, NEW_PASSWORD);
    await page.waitForURL(`${cli.url}/app`);
    expect(await at.whoami()).toBe("Signed in as Ada Lovelace");
    expect(pageErrors).toEqual([]);
  });

  it("signs in with the magic link from the outbox", async () => {
    await at.signOut("Ada Lovelace");
    await page.goto(`${cli.url}/handler/sign-in`);
    await page.getByRole("button", { name: "Email me a code instead" }).click();
    const form = page.getByRole("form", { name: "Sign in with an emailed code" });
    await form.getByLabel("Email", { exact: true }).fill(ADA);
    await form.getByRole("button", { name: "Send sign-in code" }).click();
    await page.getByText(`we sent a sign-in link and code to ${ADA}`).waitFor();
    await at.shot("magic-link-sent");
    const mail = await controls.call("waitForEmail", { query: { to: ADA, kind: "magic_link", timeoutMs: 10_000 } });
    expect(mail.link?.startsWith(`${cli.url}/handler/magic-link-callback?`)).toBe(true);
    await page.goto(mail.link!);
    await page.waitForURL(`${cli.url}/app`);
    expect(await at.whoami()).toBe("Signed in as Ada Lovelace");
    expect(pageErrors).toEqual([]);
  });

  it("creates a team in account settings", async () => {
    await page.goto(`${cli.url}/handler/account-settings`);
    await page
      .getByRole("navigation", { name: "Account settings pages" })
      .getByRole("button", { name: "Teams" })
      .click();
    await page.getByLabel("Team name", { exact: true }).fill("Analytical Engines");
    await page.getByRole("button", { name: "Create team" }).click();
    await page.getByRole("list", { name: "Teams" }).getByText("Analytical Engines").waitFor();
    const ada = await server.userByEmail(ADA);
    const teams = await server.call("listTeams", { query: { user_id: ada.id } });
    expect(teams.items.map((t) => t.display_name)).toEqual(["Analytical Engines"]);
    await at.shot("teams");
    expect(pageErrors).toEqual([]);
  });

  it("sends a denial and a provider error at the mock identity provider back to the app, which shows them", async () => {
    await at.signOut("Ada Lovelace");
    for (const [outcome, message] of [
      ["Deny", "The OAuth provider denied access to the user."],
      ["Answer with this error", "The OAuth provider is temporarily unavailable. Please try again later."],
    ] as const) {
      await page.goto(`${cli.url}/handler/sign-in`);
      await page.getByRole("button", { name: "Continue with GitHub" }).click();
      await page.getByText("Deny or fail instead").click();
      await page.getByRole("button", { name: outcome, exact: true }).click();
      // The refusal goes back to the app's callback page (the flow's redirect URI), which shows the known error.
      await page.waitForURL(new RegExp(`^${cli.url}/handler/oauth-callback\\?`));
      await page.getByRole("alert").filter({ hasText: message }).waitFor();
    }
    await at.shot("oauth-error");
    expect(pageErrors).toEqual([]);
  });

  it("signs a new user up with GitHub through the mock identity provider's page without typing: its form comes filled", async () => {
    await page.goto(`${cli.url}/handler/sign-in`);
    await page.getByRole("button", { name: "Continue with GitHub" }).click();
    await page.waitForURL(new RegExp(`^${cli.url}/__emulator/oauth/authorize/github\\?`));
    await page.getByRole("heading", { name: "Sign in with GitHub" }).waitFor();
    grace = {
      email: await page.getByLabel("Email", { exact: true }).inputValue(),
      name: await page.getByLabel("Name", { exact: true }).inputValue(),
      accountId: await page.getByLabel("Account id at GitHub").inputValue(),
    };
    expect(grace.email).toMatch(/^[a-z]+\.[a-z]+@example\.com$/);
    expect(grace.name).toMatch(/^[A-Z][a-z]+ [A-Z][a-z]+$/);
    expect(grace.accountId).toMatch(/^\d+$/);
    await at.shot("oauth-mock-idp");
    await page.getByRole("button", { name: "Continue", exact: true }).click();
    await page.waitForURL(`${cli.url}/app`);
    expect(await at.whoami()).toBe(`Signed in as ${grace.name}`);
    const user = await server.userByEmail(grace.email);
    expect(user.oauth_providers.map((p) => [p.id, p.account_id])).toEqual([["github", grace.accountId]]);
    expect(pageErrors).toEqual([]);
  });

  it("invites Grace to Ada's team by email from account settings, and Grace accepts through the link in the outbox", async () => {
    await at.signOut(grace.name);
    await at.submitSignIn(ADA, NEW_PASSWORD);
    await page.waitForURL(`${cli.url}/app`);
    await page.goto(`${cli.url}/handler/account-settings#teams`);
    const invite = page.getByRole("form", { name: "Invite a member to Analytical Engines" });
    await invite.getByLabel("Email to invite", { exact: true }).fill(grace.email);
    await invite.getByRole("button", { name: "Send invitation" }).click();
    await invite.getByText(`Invitation sent to ${grace.email}.`).waitFor();
    await at.shot("team-invite-sent");
    await at.signOut("Ada Lovelace");

    const mail = await controls.call("waitForEmail", {
      query: { to: grace.email, kind: "team_invitation", timeoutMs: 10_000 },
    });
    expect(mail.link?.startsWith(`${cli.url}/handler/team-invitation?`)).toBe(true);
    // Signed out, the link goes through sign-in (GitHub, where Grace is one click: an account seen before) and back.
    await page.goto(mail.link!);
    await page.getByRole("button", { name: "Continue with GitHub" }).click();
    await page
      .getByRole("list", { name: "Accounts used before" })
      .getByRole("button", { name: `Continue as ${grace.email}` })
      .click();
    await page.getByText("You are invited to join Analytical Engines.").waitFor();
    expect(page.url()).toBe(mail.link);
    await at.shot("team-invitation");
    await page.getByRole("button", { name: "Accept invitation" }).click();
    await page.getByText("You joined Analytical Engines.").waitFor();
    const ada = await server.userByEmail(ADA);
    const graceUser = await server.userByEmail(grace.email);
    const [team] = (await server.call("listTeams", { query: { user_id: ada.id } })).items;
    const members = await server.call("listTeamMemberProfiles", { query: { team_id: team!.id } });
    expect(members.items.map((m) => m.user_id).sort()).toEqual([ada.id, graceUser.id].sort());
    // Grace's own account settings list both members (members hold $read_members by the project's defaults).
    await page.goto(`${cli.url}/handler/account-settings#teams`);
    const list = page.getByRole("list", { name: "Members of Analytical Engines" });
    await expect
      .poll(async () => (await list.getByRole("listitem").allTextContents()).sort())
      .toEqual(["Ada Lovelace", `${grace.name} (you)`].sort());
    expect(pageErrors).toEqual([]);
  });

  it("registers a passkey with Chromium's virtual authenticator, then signs in with it (on localhost)", async () => {
    // WebAuthn refuses an IP address as its relying-party id: passkeys live at localhost (its own cookies, too).
    at = hostedPage(page, cli.url.replace("127.0.0.1", "localhost"), artifacts);
    const cdp = await browser.context.newCDPSession(page);
    await cdp.send("WebAuthn.enable");
    const { authenticatorId } = await cdp.send("WebAuthn.addVirtualAuthenticator", {
      options: {
        protocol: "ctap2",
        transport: "internal",
        hasResidentKey: true,
        hasUserVerification: true,
        isUserVerified: true,
        automaticPresenceSimulation: true,
      },
    });
    await at.submitSignIn(ADA, NEW_PASSWORD);
    await page.waitForURL(`${at.origin}/app`);
    await page.goto(`${at.origin}/handler/account-settings#sign-in`);
    await page.getByRole("button", { name: "Add a passkey" }).click();
    await page.getByText("Passkey added. You can sign in with it now.").waitFor();
    // The section's line follows the refreshed user (the SDK's caches reload after the registration's write).
    await page.getByText("Passkey sign-in is on for your account.").waitFor();
    await at.shot("passkey-added");
    const { credentials } = await cdp.send("WebAuthn.getCredentials", { authenticatorId });
    expect(credentials.map((c) => [c.rpId, c.isResidentCredential])).toEqual([["localhost", true]]);
    expect((await server.userByEmail(ADA)).passkey_auth_enabled).toBe(true);

    await at.signOut("Ada Lovelace");
    await page.goto(`${at.origin}/handler/sign-in`);
    await page.getByRole("button", { name: "Continue with a passkey" }).click();
    await page.waitForURL(`${at.origin}/app`);
    expect(await at.whoami()).toBe("Signed in as Ada Lovelace");
    // The authenticator signed once more: the sign-in used the registered credential.
    const after = await cdp.send("WebAuthn.getCredentials", { authenticatorId });
    expect(after.credentials[0]!.signCount).toBeGreaterThan(credentials[0]!.signCount);
    expect(pageErrors).toEqual([]);
  });

  it("turns on TOTP two-factor authentication in account settings, and sign-in then asks for the code", async () => {
    await page.goto(`${at.origin}/handler/account-settings#sign-in`);
    await page.getByRole("button", { name: "Set up two-factor authentication" }).click();
    // The test is the person's authenticator app: it reads the setup link and computes the current code.
    const setupLink = await page.getByLabel("Setup link", { exact: true }).inputValue();
    await page.getByLabel("Authentication code", { exact: true }).fill(URI.parse(setupLink).generate());
    await at.shot("mfa-setup");
    await page.getByRole("button", { name: "Verify and turn on" }).click();
    await page.getByText("Two-factor authentication is on.").waitFor();
    expect((await server.userByEmail(ADA)).requires_totp_mfa).toBe(true);

    await at.signOut("Ada Lovelace");
    await at.submitSignIn(ADA, NEW_PASSWORD);
    await page.waitForURL(`${at.origin}/handler/mfa`);
    await page.getByRole("heading", { name: "Two-factor authentication" }).waitFor();
    await page.getByLabel("Authentication code", { exact: true }).fill("000000");
    await page.getByRole("button", { name: "Verify code" }).click();
    await expect.poll(() => page.getByRole("alert").textContent()).toBe("The TOTP code is invalid. Please try again.");
    await at.shot("mfa-wrong-code");
    // The emulator's control endpoint shows what the authenticator app would show now.
    const ada = await server.userByEmail(ADA);
    await page
      .getByLabel("Authentication code", { exact: true })
      .fill((await controls.call("totp", { params: { user_id: ada.id } })).code);
    await page.getByRole("button", { name: "Verify code" }).click();
    await page.waitForURL(`${at.origin}/app`);
    expect(await at.whoami()).toBe("Signed in as Ada Lovelace");
    expect(pageErrors).toEqual([]);
  });

  it("signs a user up to another project picked with ?project_id=, which keeps it through the redirect, beside the dev session", async () => {
    // A second project as the dashboard makes one (fresh keys), allowing localhost so its redirects are trusted here.
    const made = await fetch(`${cli.url}/__emulator/projects`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ display_name: "Northwind", config: { allow_localhost: true } }),
    });
    expect(made.status).toBe(201);
    const other = (await made.json()) as { id: string; secret_server_key: string };
    const LIN = "lin@northwind.example";
    at = hostedPage(page, cli.url, artifacts);
    await at.signUp(LIN, PASSWORD, other.id);
    // Sign-up sent the browser to /app with no parameter: the remembered choice keeps it on Northwind.
    expect([
      await page.getByTestId("project-name").textContent(),
      await page.getByTestId("project-id").textContent(),
    ]).toEqual(["Northwind", other.id]);
    await at.shot("other-project-home");
    const northwind = serverApi(cli.url, { projectId: other.id, secretServerKey: other.secret_server_key });
    expect((await northwind.userByEmail(LIN)).has_password).toBe(true);
    await expect(server.userByEmail(LIN)).rejects.toThrow(`No user with the email ${LIN}`);
    // Refresh cookies are per project (the access cookie is shared, and renewed from the dev one on the way back).
    await page.goto(`${cli.url}/app?project_id=${dev.id}`);
    await page.getByText(`Signed in as ${grace.name}`).waitFor();
    const names = (await browser.context.cookies(cli.url)).map((c) => c.name);
    expect(names).toEqual(
      expect.arrayContaining([`stack-refresh-${dev.id}`, `stack-refresh-${other.id}`, "authsim-hosted-project"]),
    );
    expect(pageErrors).toEqual([]);
  });

  it("lays every page out at 1280 and 360 px without a horizontal scroll (screenshots in test-artifacts/screenshots)", async () => {
    // Signed out everywhere, on the dev project.
    await browser.context.clearCookies();
    at = hostedPage(page, cli.url, artifacts);
    const shots: string[] = [];
    for (const [name, path] of SIGNED_OUT_PAGES)
      shots.push(...(await sweep.page(`hosted-${name}`, `${cli.url}${path}`)));
    // The mock identity provider, with the accounts seen before, then one of them signs in.
    await page.goto(`${cli.url}/handler/sign-in`);
    await page.getByRole("button", { name: "Continue with GitHub" }).click();
    await page.getByRole("heading", { name: "Sign in with GitHub" }).waitFor();
    shots.push(...(await sweep.here("mock-idp")));
    await page.getByRole("button", { name: `Continue as ${grace.email}` }).click();
    await page.waitForURL(`${cli.url}/app`);
    for (const [name, path, menu] of SIGNED_IN_PAGES) {
      shots.push(...(await sweep.page(`hosted-${name}`, `${cli.url}${path}`)));
      // Account settings open the page of the side menu the fragment names (also when only the fragment changed).
      if (menu) expect(await page.locator('.authsim-settings-menu [aria-current="page"]').textContent()).toBe(menu);
    }
    await page.goto(`${cli.url}/app`);
    await page.getByRole("button", { name: grace.name }).click();
    shots.push(...(await sweep.here("hosted-app-user-menu")));
    expect(sweep.overflowing).toEqual([]);
    expect(shots).toHaveLength(2 * (SIGNED_OUT_PAGES.length + SIGNED_IN_PAGES.length + 2));
    expect(pageErrors).toEqual([]);
  });

  it("asked nothing of the network along the way", () => {
    expect(offMachine).toEqual([]);
  });
});

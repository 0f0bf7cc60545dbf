import { cleanup, fireEvent, screen, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { Handler } from "../handler/handler.tsx";
import { createTestApp, PASSWORD, renderWithApp, uniqueEmail, type TestApp } from "../test-support/render-app.tsx";

/** The cli-auth-confirm page (spec §2, §4 polling): a CLI polls while the signed-in person authorizes it here. */
afterEach(cleanup);

/** A CLI login started by another app, polling every 10 ms; its confirm link and its eventual answer. */
async function startCli(t: TestApp) {
  const links: string[] = [];
  const answer = t.otherApp().promptCliLogin({
    appUrl: "http://localhost:3000",
    waitTimeMillis: 10,
    maxAttempts: 1000,
    promptLink: (url) => void links.push(url),
  });
  await waitFor(() => expect(links).toHaveLength(1));
  const url = new URL(links[0]!);
  return { path: `${url.pathname}${url.search}`, answer };
}

async function signedIn(t: TestApp): Promise<string> {
  const email = uniqueEmail("cli");
  await t.app.signUpWithCredential({ email, password: PASSWORD, noRedirect: true, noVerificationCallback: true });
  return email;
}

describe("the CLI confirmation page", () => {
  it("hands the session to the waiting CLI on 'Authorize CLI', once", async () => {
    const t = createTestApp();
    const email = await signedIn(t);
    const cli = await startCli(t);
    expect(cli.path).toMatch(/^\/handler\/cli-auth-confirm\?login_code=/);
    await renderWithApp(t, <Handler location={cli.path} />);
    expect((await screen.findByText(email)).tagName).toBe("STRONG");
    fireEvent.click(screen.getByRole("button", { name: "Authorize CLI" }));
    expect((await screen.findByRole("status")).textContent).toBe(
      "CLI authorized. You can close this window and return to your terminal.",
    );
    const answer = await cli.answer;
    expect(answer.status === "ok" && answer.data).toEqual(expect.any(String));
    cleanup();

    await renderWithApp(t, <Handler location={cli.path} />);
    fireEvent.click(screen.getByRole("button", { name: "Authorize CLI" }));
    expect((await screen.findByRole("alert")).textContent).toBe("Invalid login code or the code has expired");
  });

  it("shows the expiry of a login that waited too long", async () => {
    const t = createTestApp();
    await signedIn(t);
    const cli = await startCli(t);
    t.provider.clock.advance(3 * 60 * 60_000);
    await renderWithApp(t, <Handler location={cli.path} />);
    // The provider's clock moved past the access token's life too: the user loads after a token refresh.
    fireEvent.click(await screen.findByRole("button", { name: "Authorize CLI" }));
    expect((await screen.findByRole("alert")).textContent).toBe("Invalid login code or the code has expired");
    const answer = await cli.answer;
    expect(answer.status === "error" && answer.error.code).toBe("CLI_AUTH_EXPIRED_ERROR");
  });

  it("requires a user: a signed-out visitor goes to sign-in and back (spec §2)", async () => {
    const t = createTestApp();
    const page = "http://localhost:3000/handler/cli-auth-confirm?login_code=abc";
    await renderWithApp(t, <Handler location={page} />);
    await waitFor(() =>
      expect(t.navigations).toEqual([`/handler/sign-in?after_auth_return_to=${encodeURIComponent(page)}`]),
    );
  });

  it("says the link is incomplete without a login code", async () => {
    const t = createTestApp();
    await signedIn(t);
    await renderWithApp(t, <Handler location="/handler/cli-auth-confirm" />);
    expect((await screen.findByRole("alert")).textContent).toMatch(/^This link is incomplete: it has no login code/);
  });
});

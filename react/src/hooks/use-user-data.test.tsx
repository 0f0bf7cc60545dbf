import { act, cleanup, screen, waitFor } from "@testing-library/react";
import { Suspense, type ReactNode } from "react";
import { afterEach, describe, expect, it } from "vitest";
import { createTestApp, PASSWORD, renderWithApp, uniqueEmail, type TestApp } from "../test-support/render-app.tsx";
import { useApiKeys, useContactChannels, useItem, usePermissions, useTeam, useTeams } from "./use-user-data.ts";

afterEach(cleanup);

async function signUp(t: TestApp): Promise<string> {
  const email = uniqueEmail();
  const r = await t.app.signUpWithCredential({
    email,
    password: PASSWORD,
    noRedirect: true,
    noVerificationCallback: true,
  });
  if (r.status === "error") throw r.error;
  return email;
}

function Teams() {
  return (
    <p data-testid="teams">
      {useTeams()
        .map((t) => t.displayName)
        .join(", ") || "none"}
    </p>
  );
}

const inSuspense = (ui: ReactNode) => <Suspense fallback={<p>loading</p>}>{ui}</Suspense>;

describe("user data hooks", () => {
  it("give empty values when signed out, without a request", async () => {
    const t = createTestApp();
    function All() {
      return (
        <p data-testid="all">
          {JSON.stringify([
            useTeams(),
            useContactChannels(),
            useApiKeys(),
            usePermissions(),
            useItem("credits"),
            useTeam("x"),
          ])}
        </p>
      );
    }
    await renderWithApp(t, inSuspense(<All />));
    expect(screen.getByTestId("all").textContent).toBe("[[],[],[],[],null,null]");
  });

  it("useTeams shows a team created through the SDK (the cache refreshes after the write)", async () => {
    const t = createTestApp();
    await signUp(t);
    await renderWithApp(t, inSuspense(<Teams />));
    await waitFor(() => expect(screen.getByTestId("teams").textContent).toBe("none"));
    const user = await t.app.getUser({ or: "throw" });
    await act(async () => void (await user.createTeam({ displayName: "Analytical Engines" })));
    await waitFor(() => expect(screen.getByTestId("teams").textContent).toBe("Analytical Engines"));
  });

  it("useTeam finds one of the user's teams by id", async () => {
    const t = createTestApp();
    await signUp(t);
    const team = await (await t.app.getUser({ or: "throw" })).createTeam({ displayName: "Difference" });
    function One() {
      return <p data-testid="team">{useTeam(team.id)?.displayName ?? "missing"}</p>;
    }
    await renderWithApp(t, inSuspense(<One />));
    await waitFor(() => expect(screen.getByTestId("team").textContent).toBe("Difference"));
  });

  it("useContactChannels lists the primary email", async () => {
    const t = createTestApp();
    const email = await signUp(t);
    function Channels() {
      return (
        <p data-testid="channels">
          {useContactChannels()
            .map((c) => `${c.value}${c.isPrimary ? " (primary)" : ""}`)
            .join(", ")}
        </p>
      );
    }
    await renderWithApp(t, inSuspense(<Channels />));
    await waitFor(() => expect(screen.getByTestId("channels").textContent).toBe(`${email} (primary)`));
  });

  it("useApiKeys shows a new key by its description", async () => {
    const t = createTestApp();
    await signUp(t);
    function Keys() {
      return (
        <p data-testid="keys">
          {useApiKeys()
            .map((k) => k.description)
            .join(", ") || "none"}
        </p>
      );
    }
    await renderWithApp(t, inSuspense(<Keys />));
    await waitFor(() => expect(screen.getByTestId("keys").textContent).toBe("none"));
    const user = await t.app.getUser({ or: "throw" });
    await act(async () => void (await user.createApiKey({ description: "ci key", expiresAt: null })));
    await waitFor(() => expect(screen.getByTestId("keys").textContent).toBe("ci key"));
  });

  it("usePermissions lists the creator's permissions in a new team", async () => {
    const t = createTestApp();
    await signUp(t);
    const user = await t.app.getUser({ or: "throw" });
    const team = await user.createTeam({ displayName: "Perms" });
    const expected = (await user.listPermissions(team)).map((p) => p.id).sort();
    function Perms() {
      return (
        <p data-testid="perms">
          {usePermissions(team)
            .map((p) => p.id)
            .sort()
            .join(",")}
        </p>
      );
    }
    await renderWithApp(t, inSuspense(<Perms />));
    await waitFor(() => expect(screen.getByTestId("perms").textContent).toBe(expected.join(",")));
  });
});

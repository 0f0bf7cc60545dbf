import { act, render, screen, waitFor } from "@testing-library/react";
import { Component, Suspense, type ReactNode } from "react";
import { createRoot } from "react-dom/client";
import { afterEach, describe, expect, it, onTestFinished, vi } from "vitest";
import { cleanup } from "@testing-library/react";
import { UserNotSignedInError } from "@authsim/sdk";
import { StackProvider } from "../provider/stack-provider.tsx";
import { createTestApp, existingUser, PASSWORD, renderWithApp, uniqueEmail } from "../test-support/render-app.tsx";
import { useProject } from "./use-project.ts";
import { useUser, type UseUserOptions } from "./use-user.ts";

afterEach(cleanup);

function Who(props: UseUserOptions) {
  const user = useUser(props);
  return (
    <p data-testid="who">
      {user
        ? `${user.displayName ?? user.primaryEmail ?? "anonymous"}${user.isAnonymous ? " (anonymous)" : ""}`
        : "nobody"}
    </p>
  );
}

class Catch extends Component<{ children: ReactNode }, { error: unknown }> {
  override state: { error: unknown } = { error: null };
  static getDerivedStateFromError(error: unknown) {
    return { error };
  }
  override render() {
    return this.state.error ? <p data-testid="caught">{(this.state.error as Error).name}</p> : this.props.children;
  }
}

const tree = (ui: ReactNode) => <Suspense fallback={<p data-testid="loading">loading</p>}>{ui}</Suspense>;

describe("useUser", () => {
  it("gives null when no one is signed in, without suspending", async () => {
    const t = createTestApp();
    await renderWithApp(t, tree(<Who />));
    expect(screen.getByTestId("who").textContent).toBe("nobody");
  });

  it("suspends while the user loads, then shows them", async () => {
    const t = createTestApp();
    const email = uniqueEmail();
    await t.app.signUpWithCredential({ email, password: PASSWORD, noRedirect: true, noVerificationCallback: true });
    // A plain root outside act (testing-library's render always uses act), so React schedules as in a browser:
    // the fallback shows first, then the render is retried when the cache's promise settles.
    const scope = globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean };
    scope.IS_REACT_ACT_ENVIRONMENT = false;
    const container = document.body.appendChild(document.createElement("div"));
    const root = createRoot(container);
    try {
      root.render(<StackProvider app={t.app}>{tree(<Who />)}</StackProvider>);
      expect((await screen.findByTestId("loading")).textContent).toBe("loading");
      expect((await screen.findByTestId("who")).textContent).toBe(email);
    } finally {
      root.unmount();
      container.remove();
      scope.IS_REACT_ACT_ENVIRONMENT = true;
    }
  });

  it("re-renders on sign-in and sign-out through the app (the SDK cache moves to the new session)", async () => {
    const t = createTestApp();
    const email = await existingUser(t);
    await renderWithApp(t, tree(<Who />));
    expect(screen.getByTestId("who").textContent).toBe("nobody");
    await act(() => t.app.signInWithCredential({ email, password: PASSWORD, noRedirect: true }));
    await waitFor(() => expect(screen.getByTestId("who").textContent).toBe(email));
    await act(() => t.app.signOut());
    await waitFor(() => expect(screen.getByTestId("who").textContent).toBe("nobody"));
  });

  it("re-renders after the user is changed through the SDK", async () => {
    const t = createTestApp();
    await t.app.signUpWithCredential({
      email: uniqueEmail(),
      password: PASSWORD,
      noRedirect: true,
      noVerificationCallback: true,
    });
    await renderWithApp(t, tree(<Who />));
    await screen.findByTestId("who");
    const user = await t.app.getUser({ or: "throw" });
    await act(() => user.setDisplayName("Grace Hopper"));
    await waitFor(() => expect(screen.getByTestId("who").textContent).toBe("Grace Hopper"));
  });

  it('throws UserNotSignedInError with or: "throw"', async () => {
    // React logs errors caught by a boundary; this one is expected.
    const quiet = vi.spyOn(console, "error").mockImplementation(() => {});
    onTestFinished(() => quiet.mockRestore());
    const t = createTestApp();
    await renderWithApp(t, <Catch>{tree(<Who or="throw" />)}</Catch>);
    expect(screen.getByTestId("caught").textContent).toBe(UserNotSignedInError.name);
  });

  it('sends the browser to sign-in with after_auth_return_to, and renders nothing, with or: "redirect"', async () => {
    const t = createTestApp();
    await renderWithApp(t, tree(<Who or="redirect" />));
    await waitFor(() => expect(t.navigations).toHaveLength(1));
    expect(t.navigations[0]).toBe(`/handler/sign-in?after_auth_return_to=${encodeURIComponent(window.location.href)}`);
    expect(screen.queryByTestId("who")).toBeNull();
  });

  it('signs up an anonymous user with or: "anonymous", who stays invisible to the default mode (spec §4)', async () => {
    const t = createTestApp();
    await renderWithApp(
      t,
      tree(
        <>
          <Who or="anonymous" />
          <Who />
        </>,
      ),
    );
    await waitFor(() =>
      expect(screen.getAllByTestId("who").map((e) => e.textContent)).toEqual(["anonymous (anonymous)", "nobody"]),
    );
    const users = await t.provider.fetch(`http://authsim.test/api/v1/users?include_anonymous=true`, {
      headers: {
        "x-stack-access-type": "server",
        "x-stack-project-id": t.app.projectId,
        "x-stack-secret-server-key": "ssk_authsim_dev_0000000000000000000000000000000000000000",
      },
    });
    const body = (await users.json()) as { items: { is_anonymous: boolean }[] };
    expect(body.items.filter((u) => u.is_anonymous)).toHaveLength(1);
  });

  it("sees a sign-in made by another app on the same cookies within the 100 ms poll (spec §9)", async () => {
    document.cookie.split(";").forEach((c) => (document.cookie = `${c.split("=")[0]!.trim()}=; max-age=0; path=/`));
    const t = createTestApp({ tokenStore: "cookie" });
    const email = await existingUser(t);
    await renderWithApp(t, tree(<Who />));
    expect(screen.getByTestId("who").textContent).toBe("nobody");
    // Another tab: a second app instance over the same document cookies.
    await t.otherApp({ tokenStore: "cookie" }).signInWithCredential({ email, password: PASSWORD, noRedirect: true });
    await waitFor(() => expect(screen.getByTestId("who").textContent).toBe(email), { timeout: 2_000 });
    await t.otherApp({ tokenStore: "cookie" }).signOut();
    await waitFor(() => expect(screen.getByTestId("who").textContent).toBe("nobody"), { timeout: 2_000 });
  });
});

describe("useProject", () => {
  function ProjectName() {
    return <p data-testid="project">{useProject().displayName}</p>;
  }

  it("reads the project once for every component", async () => {
    const t = createTestApp();
    let requests = 0;
    const counting = createTestApp(
      { fetch: (url, init) => (url.endsWith("/projects/current") && requests++, t.provider.fetch(url, init)) },
      t.provider,
    );
    await act(
      async () =>
        void render(
          <StackProvider app={counting.app}>
            {tree(
              <>
                <ProjectName />
                <ProjectName />
              </>,
            )}
          </StackProvider>,
        ),
    );
    const names = await screen.findAllByTestId("project");
    expect(names.map((n) => n.textContent)).toEqual(["authsim dev project", "authsim dev project"]);
    expect(requests).toBe(1);
  });

  it("needs a StackProvider", () => {
    expect(() => render(<ProjectName />)).toThrow(/StackProvider/);
  });
});

import { describe, expect, it } from "vitest";
import { isKnownErrorOfType, KnownError, type AnyKnownError } from "@authsim/sdk";
import type { Target } from "../targets.ts";
import { clientApp, expectKnownError, PASSWORD, serverApp, signedUpClient, uniqueEmail } from "./support.ts";

/**
 * Known errors as the SDK surfaces them (spec §8; protocol.md §3.1): code and status from the catalogue, project
 * authentication failures thrown (never turned into results), and isInstance following the parent chain.
 */
export function errorCases(getTarget: () => Target): void {
  describe("known errors through the SDK", () => {
    it("a wrong publishable key fails getProject with INVALID_PUBLISHABLE_CLIENT_KEY (401)", async () => {
      const target = getTarget();
      const app = clientApp(target, { publishableClientKey: "pck_wrong" });
      const error = await expectKnownError(app.getProject(), "INVALID_PUBLISHABLE_CLIENT_KEY", 401);
      expect(error.details).toMatchObject({ project_id: target.projectId });
      expect(error.message).toContain(target.projectId);
    });

    it("a wrong publishable key is thrown from sign-in, not returned as a sign-in result", async () => {
      const app = clientApp(getTarget(), { publishableClientKey: "pck_wrong" });
      await expectKnownError(
        app.signInWithCredential({ email: uniqueEmail("nobody"), password: PASSWORD, noRedirect: true }),
        "INVALID_PUBLISHABLE_CLIENT_KEY",
        401,
      );
      await expectKnownError(
        app.signUpWithCredential({
          email: uniqueEmail("nobody"),
          password: PASSWORD,
          noVerificationCallback: true,
          noRedirect: true,
        }),
        "INVALID_PUBLISHABLE_CLIENT_KEY",
        401,
      );
    });

    it("a server app with a wrong secret gets INVALID_SECRET_SERVER_KEY (401) on every server call", async () => {
      const target = getTarget();
      const { userId } = await signedUpClient(target);
      const server = serverApp(target, { secretServerKey: "ssk_wrong" });
      await expectKnownError(server.listUsers({ limit: 1 }), "INVALID_SECRET_SERVER_KEY", 401);
      await expectKnownError(server.getUser(userId), "INVALID_SECRET_SERVER_KEY", 401);
      await expectKnownError(
        server.createUser({ primaryEmail: uniqueEmail("never") }),
        "INVALID_SECRET_SERVER_KEY",
        401,
      );
      // The right key reads the same user.
      expect((await serverApp(target).getUser(userId))?.id).toBe(userId);
    });

    it("isInstance follows the parent chain, and the union switches on code", async () => {
      const error = await expectKnownError(
        clientApp(getTarget(), { publishableClientKey: "pck_wrong" }).getProject(),
        "INVALID_PUBLISHABLE_CLIENT_KEY",
      );
      expect(error.isInstance("INVALID_PUBLISHABLE_CLIENT_KEY")).toBe(true);
      expect(error.isInstance("INVALID_PROJECT_AUTHENTICATION")).toBe(true);
      expect(error.isInstance("PROJECT_AUTHENTICATION_ERROR")).toBe(true);
      expect(error.isInstance("INVALID_SECRET_SERVER_KEY")).toBe(false);
      expect(error.isInstance("SESSION_AUTHENTICATION_ERROR")).toBe(false);
      expect(isKnownErrorOfType(error, "PROJECT_AUTHENTICATION_ERROR")).toBe(true);
      expect(isKnownErrorOfType(new Error("plain"), "PROJECT_AUTHENTICATION_ERROR")).toBe(false);

      const describeError = (e: AnyKnownError): string => {
        switch (e.code) {
          case "INVALID_PUBLISHABLE_CLIENT_KEY":
            return `bad key for ${String(e.details.project_id)}`;
          default:
            return "other";
        }
      };
      expect(describeError(error as AnyKnownError)).toBe(`bad key for ${getTarget().projectId}`);
      expect(error).toBeInstanceOf(KnownError);
    });
  });
}

import { describe, expect, it } from "vitest";
import type { Target } from "../targets.ts";
import { clientApp, clientWithTokens, PASSWORD, serverApp, signedUpClient } from "./support.ts";

/** The signed-in user's own writes (spec §7 "/users/me PATCH, DELETE"; spec §4: deleting the user ends the session). */
const ONE_PIXEL_GIF = "data:image/gif;base64,R0lGODlhAQABAAAAACH5BAEKAAEALAAAAAABAAEAAAICTAEAOw==";

export function userCases(getTarget: () => Target): void {
  describe("the current user", () => {
    it("update (displayName, clientMetadata, profileImageUrl) is visible on the next getUser", async () => {
      const target = getTarget();
      const { app, user } = await signedUpClient(target);
      expect(user.displayName).toBeNull();
      await user.update({
        displayName: "Ada Lovelace",
        clientMetadata: { theme: "dark", tours: [1, 2] },
        // A client may set only an inline image (a web URL is "Invalid profile image URL", 400, as the real service answers).
        profileImageUrl: ONE_PIXEL_GIF,
      });
      const read = await app.getUser({ or: "throw" });
      expect(read.displayName).toBe("Ada Lovelace");
      expect(read.clientMetadata).toEqual({ theme: "dark", tours: [1, 2] });
      // The real service stores an inline image and answers a URL of its own for it: a URL, not necessarily the one sent.
      expect(read.profileImageUrl).toEqual(expect.any(String));
      // The server sees the same values.
      const server = await serverApp(target).getUser(user.id);
      expect(server?.displayName).toBe("Ada Lovelace");
      expect(server?.clientMetadata).toEqual({ theme: "dark", tours: [1, 2] });
    });

    it("leaves the fields an update does not name unchanged", async () => {
      const { app, user } = await signedUpClient(getTarget());
      await user.update({ displayName: "First", clientMetadata: { a: 1 } });
      await user.setDisplayName("Second");
      const read = await app.getUser({ or: "throw" });
      expect(read.displayName).toBe("Second");
      expect(read.clientMetadata).toEqual({ a: 1 });
      await read.setClientMetadata(null);
      const cleared = await app.getUser({ or: "throw" });
      expect(cleared.clientMetadata).toBeNull();
      expect(cleared.displayName).toBe("Second");
    });

    it("delete signs the user out locally and removes it for the server", async () => {
      const target = getTarget();
      const { app, email, user } = await signedUpClient(target);
      const refreshToken = await app.getRefreshToken();
      await user.delete();
      expect(await app.getUser()).toBeNull();
      expect(await app.getRefreshToken()).toBeNull();
      expect(await serverApp(target).getUser(user.id)).toBeNull();
      // Its sessions are gone server-side too, and its credentials no longer sign in.
      expect(await clientWithTokens(target, { accessToken: "", refreshToken }).getUser()).toBeNull();
      const again = await clientApp(target).signInWithCredential({ email, password: PASSWORD, noRedirect: true });
      expect(again.status === "error" && again.error.code).toBe("EMAIL_PASSWORD_MISMATCH");
    });
  });
}

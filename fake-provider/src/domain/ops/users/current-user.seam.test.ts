import { describe, expect, it } from "vitest";
import { asClient, asServer, devSeedWith, opSeam } from "../../../test-support/op-seam.ts";
import { currentUser, deleteCurrentUser, updateCurrentUser } from "./current-user.ts";
import { openSession } from "../sign-in/sessions.ts";

/** /users/me: the caller's own user, read, updated and deleted (protocol.md §5.2, §6.3), at the ops' seam. */

const PNG = "data:image/png;base64,iVBORw0KGgo=";

describe("currentUser", () => {
  it("is the caller's user; a caller without one is CANNOT_GET_OWN_USER_WITHOUT_USER", async () => {
    const seam = opSeam();
    const user = await seam.addUser({ primary_email: "me@example.com" });
    expect((await seam.ok(asClient(user), (ctx) => currentUser(ctx.auth))).id).toBe(user.id);
    await seam.refuses(asServer(), (ctx) => currentUser(ctx.auth), "CANNOT_GET_OWN_USER_WITHOUT_USER");
  });
});

describe("updateCurrentUser", () => {
  it("updates the caller's user; a client's profile image must be an image", async () => {
    const seam = opSeam();
    const user = await seam.addUser();
    expect(
      await seam.ok(asClient(user), (ctx) => updateCurrentUser(ctx, { display_name: "Ada", profile_image_url: PNG })),
    ).toMatchObject({
      displayName: "Ada",
      // Stored, and named by its URL on the storage endpoint (domain/ops/storage/uploaded-images.ts).
      profileImageUrl: expect.stringMatching(/\/__storage\/stack-storage\/user-profile-images\/[0-9a-f-]{36}\.png$/),
    });
    expect(
      (
        await seam.refuses(
          asClient(user),
          (ctx) => updateCurrentUser(ctx, { profile_image_url: "https://img.example.com/a.png" }),
          400,
        )
      ).message,
    ).toBe("Invalid profile image URL");
    // A server may set any URL for the user it acts as.
    expect(
      await seam.ok(asServer(user), (ctx) =>
        updateCurrentUser(ctx, { profile_image_url: "https://img.example.com/a.png" }),
      ),
    ).toMatchObject({ profileImageUrl: "https://img.example.com/a.png" });
  });

  it("asks for the user before looking at the image", async () => {
    const seam = opSeam();
    await seam.refuses(
      asClient(),
      (ctx) => updateCurrentUser(ctx, { profile_image_url: "not an image" }),
      "CANNOT_GET_OWN_USER_WITHOUT_USER",
    );
  });
});

describe("deleteCurrentUser", () => {
  it("deletes a client's own user, with its sessions, where the project allows it", async () => {
    const seam = opSeam({ seed: devSeedWith({ client_user_deletion_enabled: true }) });
    const user = await seam.addUser();
    const { session } = await seam.ok((ctx) => openSession(ctx, user));
    await seam.ok(asClient(user), (ctx) => deleteCurrentUser(ctx));
    expect([seam.tables.users.has(user.id), seam.tables.sessions.has(session.id)]).toEqual([false, false]);
  });

  it("refuses a client where the project does not allow it (upstream's plain 400), deleting nothing; a server may", async () => {
    const seam = opSeam({ seed: devSeedWith({ client_user_deletion_enabled: false }) });
    const user = await seam.addUser();
    expect((await seam.refuses(asClient(user), (ctx) => deleteCurrentUser(ctx), 400)).message).toBe(
      "Client user deletion is not enabled for this project",
    );
    await seam.ok(asServer(user), (ctx) => deleteCurrentUser(ctx));
    expect(seam.tables.users.has(user.id)).toBe(false);
  });

  it("asks the project's switch first, as the real handler: a client without a user is CANNOT_GET_OWN_USER_WITHOUT_USER only where deletion is on", async () => {
    const off = opSeam({ seed: devSeedWith({ client_user_deletion_enabled: false }) });
    await off.refuses(asClient(), (ctx) => deleteCurrentUser(ctx), 400);
    const on = opSeam({ seed: devSeedWith({ client_user_deletion_enabled: true }) });
    await on.refuses(asClient(), (ctx) => deleteCurrentUser(ctx), "CANNOT_GET_OWN_USER_WITHOUT_USER");
  });
});

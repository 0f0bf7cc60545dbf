import { describe, expect, it } from "vitest";
import { knownError } from "../domain/errors/known-error.ts";
import { updateUser } from "../domain/ops/users/users.ts";
import { asClient, opSeam } from "./op-seam.ts";

/** The op seam runs an op as api/routes/mount.ts does, and its refusal check catches what a rollback cannot undo. */

describe("opSeam", () => {
  it("rolls a refused op's writes back, but keeps what it wrote through keepOnFailure, as a request does", async () => {
    const seam = opSeam();
    const user = await seam.addUser({ display_name: "before" });
    const out = await seam.run((ctx) => {
      ctx.tables.users.set(user.id, { ...user, displayName: "rolled back" });
      ctx.keepOnFailure((tables) => tables.counters.set("kept", 1));
      throw knownError("USER_NOT_FOUND");
    });
    expect(!out.ok && "code" in out.error && out.error.code).toBe("USER_NOT_FOUND");
    expect([seam.tables.users.get(user.id)?.displayName, seam.tables.counters.get("kept")]).toEqual(["before", 1]);
  });

  it("refuses() fails a refusal that changed a record in place, which no rollback can see", async () => {
    const seam = opSeam();
    const user = await seam.addUser({ display_name: "before" });
    const mutating = seam.refuses((ctx) => {
      // What the house rules forbid: a record changed without its table's transition.
      Object.assign(ctx.tables.users.get(user.id)!, { displayName: "leaked" });
      throw knownError("USER_NOT_FOUND");
    }, "USER_NOT_FOUND");
    await expect(mutating).rejects.toThrow(/a refusal with USER_NOT_FOUND changed the state/);
  });

  it("gives an op the caller as parseAuth would: the project, the type, the user as the tables hold it now", async () => {
    const seam = opSeam();
    const user = await seam.addUser({ display_name: "old" });
    await seam.ok((ctx) => updateUser(ctx, user, { display_name: "new" }));
    const auth = await seam.ok(asClient(user), (ctx) => ctx.auth);
    expect(auth).toMatchObject({
      type: "client",
      project: seam.project(),
      branchId: "main",
      user: { id: user.id, displayName: "new" },
      sessionId: null,
    });
  });
});

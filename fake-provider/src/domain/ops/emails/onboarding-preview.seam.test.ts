import { describe, expect, it } from "vitest";
import { INTERNAL_PROJECT_ID } from "@authsim/sdk/contract";
import { asAdmin, opSeam, type OpSeam } from "../../../test-support/op-seam.ts";
import { previewAffectedUsers } from "./onboarding-preview.ts";
import { writeOverride } from "../config/project-config.ts";

/** Who turning on email verification would restrict, at the op's seam. */

const preview = (seam: OpSeam, requireEmailVerification: boolean | undefined, limit?: string) =>
  seam.ok(asAdmin(), (ctx) =>
    previewAffectedUsers(
      ctx,
      ctx.auth.project,
      { onboarding: { require_email_verification: requireEmailVerification } },
      { limit },
    ),
  );

/** One user of each kind, oldest first: only the non-anonymous ones without a verified primary email count. */
async function usersOfEachKind(seam: OpSeam) {
  const verified = await seam.addUser({
    primary_email: "verified@example.com",
    primary_email_verified: true,
    display_name: "Vera",
  });
  seam.clock.advance(1_000);
  const unverified = await seam.addUser({
    primary_email: "unverified@example.com",
    primary_email_verified: false,
    display_name: "Una",
  });
  seam.clock.advance(1_000);
  await seam.addUser({ is_anonymous: true });
  seam.clock.advance(1_000);
  const noEmail = await seam.addUser({ display_name: "Nomi" });
  seam.clock.advance(1_000);
  const restricted = await seam.addUser({
    primary_email: "held@example.com",
    restricted_by_admin: true,
    restricted_by_admin_reason: "review",
  });
  // Another project's unverified user is not this project's concern.
  await seam.addUser({ primary_email: "elsewhere@example.com" }, INTERNAL_PROJECT_ID);
  return { verified, unverified, noEmail, restricted };
}

describe("previewAffectedUsers", () => {
  it("turning verification on lists the users without a verified primary email, newest first, with the reason", async () => {
    const seam = opSeam();
    const { unverified, noEmail, restricted } = await usersOfEachKind(seam);
    const before = seam.snapshot();
    const out = await preview(seam, true);
    expect(out).toEqual({
      affected_users: [
        {
          id: restricted.id,
          display_name: null,
          primary_email: "held@example.com",
          restricted_reason: { type: "email_not_verified" },
        },
        {
          id: noEmail.id,
          display_name: "Nomi",
          primary_email: null,
          restricted_reason: { type: "email_not_verified" },
        },
        {
          id: unverified.id,
          display_name: "Una",
          primary_email: "unverified@example.com",
          restricted_reason: { type: "email_not_verified" },
        },
      ],
      total_affected_count: 3,
    });
    // A preview writes nothing.
    expect(seam.snapshot()).toEqual(before);
  });

  it("limit cuts the list (default 10) but not the count; a negative limit takes from the end", async () => {
    const seam = opSeam();
    const made = [];
    for (let i = 0; i < 12; i++) made.push(await seam.addUser({ primary_email: `u${i}@example.com` }));
    const newest = made.map((u) => u.id).reverse();
    const ids = async (limit?: string) => {
      const out = await preview(seam, true, limit);
      expect(out.total_affected_count).toBe(12);
      return out.affected_users.map((u) => u.id);
    };
    expect(await ids()).toEqual(newest.slice(0, 10));
    expect(await ids("3")).toEqual(newest.slice(0, 3));
    expect(await ids(" 2abc")).toEqual(newest.slice(0, 2));
    expect(await ids("0")).toEqual([]);
    expect(await ids("50")).toEqual(newest);
    expect(await ids("-2")).toEqual(newest.slice(-2));
  });

  it("affects nobody when verification stays off, is turned off, or was already on", async () => {
    const seam = opSeam();
    await usersOfEachKind(seam);
    const nobody = { affected_users: [], total_affected_count: 0 };
    expect(await preview(seam, undefined)).toEqual(nobody);
    expect(await preview(seam, false)).toEqual(nobody);
    await seam.ok((ctx) =>
      writeOverride(
        ctx,
        ctx.tables.projects.get(seam.project().id)!,
        "environment",
        { "onboarding.requireEmailVerification": true },
        "merge",
      ),
    );
    expect(await preview(seam, true)).toEqual(nobody);
    expect(await preview(seam, undefined)).toEqual(nobody);
    expect(await preview(seam, false)).toEqual(nobody);
  });
});

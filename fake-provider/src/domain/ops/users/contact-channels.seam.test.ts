import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { UserRecord } from "../../store/records.ts";
import { asClient, opSeam, type OpSeam } from "../../../test-support/op-seam.ts";
import {
  createChannel,
  deleteChannel,
  listChannels,
  requireChannel,
  sendChannelVerification,
  sendPrimaryVerification,
  updateChannel,
  verifyChannel,
} from "./contact-channels.ts";
import { passwordSignUp } from "../sign-in/password-auth.ts";
import { deleteUser, updateUser } from "./users.ts";

/** Contact channels, the primary email they mirror, and email verification (protocol.md §5.6, §7.3), at the ops' seam. */

const CALLBACK = "http://localhost:3000/handler/email-verification";
const current = (seam: OpSeam, user: UserRecord) => seam.tables.users.get(user.id)!;
const channel = (seam: OpSeam, id: string) => seam.tables.contactChannels.get(id)!;
const lastCode = (seam: OpSeam, to: string) =>
  [...seam.tables.emails.values()].filter((e) => e.kind === "email_verification" && e.to.includes(to)).at(-1)?.code;

/** The mirror rule: at most one primary channel, and the user's primary-email fields are its value and flags. */
function expectMirrored(seam: OpSeam, user: UserRecord): void {
  const channels = [...seam.tables.contactChannels.values()].filter((c) => c.userId === user.id);
  const primaries = channels.filter((c) => c.isPrimary);
  expect(primaries.length).toBeLessThanOrEqual(1);
  const u = current(seam, user);
  const primary = primaries[0];
  expect({ email: u.primaryEmail, verified: u.primaryEmailVerified, auth: u.primaryEmailAuthEnabled }).toEqual(
    primary
      ? { email: primary.value, verified: primary.isVerified, auth: primary.usedForAuth }
      : { email: null, verified: false, auth: false },
  );
}

describe("the primary email is the primary channel", () => {
  it("sign-up makes it used for auth and unverified; it is removed with its user", async () => {
    const seam = opSeam();
    const out = await seam.ok(asClient(), (ctx) =>
      passwordSignUp(ctx, { email: "s@example.com", password: "long enough" }),
    );
    const user = seam.tables.users.get(out.user_id)!;
    expect(await seam.ok((ctx) => listChannels(ctx, user.id))).toEqual([
      expect.objectContaining({ value: "s@example.com", isPrimary: true, usedForAuth: true, isVerified: false }),
    ]);
    await seam.ok((ctx) => deleteUser(ctx, current(seam, user)));
    expect(await seam.ok((ctx) => listChannels(ctx, user.id))).toEqual([]);
  });

  it("stays mirrored through any sequence of channel creates, updates, deletes and primary-email changes", async () => {
    const values = ["a@example.com", "b@example.com", "c@example.com"];
    type Step =
      | { kind: "create"; value: string; primary: boolean; auth: boolean; verified: boolean }
      | {
          kind: "update";
          pick: number;
          value: string | undefined;
          primary: boolean | undefined;
          auth: boolean | undefined;
        }
      | { kind: "delete"; pick: number }
      | { kind: "primaryEmail"; value: string | null };
    const step: fc.Arbitrary<Step> = fc.oneof(
      fc.record({
        kind: fc.constant("create" as const),
        value: fc.constantFrom(...values),
        primary: fc.boolean(),
        auth: fc.boolean(),
        verified: fc.boolean(),
      }),
      fc.record({
        kind: fc.constant("update" as const),
        pick: fc.nat(),
        value: fc.option(fc.constantFrom(...values), { nil: undefined }),
        primary: fc.option(fc.boolean(), { nil: undefined }),
        auth: fc.option(fc.boolean(), { nil: undefined }),
      }),
      fc.record({ kind: fc.constant("delete" as const), pick: fc.nat() }),
      fc.record({
        kind: fc.constant("primaryEmail" as const),
        value: fc.option(fc.constantFrom(...values), { nil: null }),
      }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(step, { maxLength: 12 }), async (steps) => {
        const seam = opSeam();
        const user = await seam.addUser();
        for (const s of steps) {
          const mine = [...seam.tables.contactChannels.values()].filter((c) => c.userId === user.id);
          const picked =
            mine.length > 0 && s.kind !== "create" && s.kind !== "primaryEmail"
              ? mine[s.pick % mine.length]!
              : undefined;
          const outcome =
            s.kind === "create"
              ? await seam.run((ctx) =>
                  createChannel(ctx, current(seam, user), {
                    type: "email",
                    value: s.value,
                    is_primary: s.primary,
                    used_for_auth: s.auth,
                    is_verified: s.verified,
                  }),
                )
              : s.kind === "update" && picked
                ? await seam.run((ctx) =>
                    updateChannel(ctx, current(seam, user), channel(seam, picked.id), {
                      ...(s.value ? { value: s.value } : {}),
                      ...(s.primary !== undefined ? { is_primary: s.primary } : {}),
                      ...(s.auth !== undefined ? { used_for_auth: s.auth } : {}),
                    }),
                  )
                : s.kind === "delete" && picked
                  ? await seam.run((ctx) => deleteChannel(ctx, current(seam, user), channel(seam, picked.id)))
                  : s.kind === "primaryEmail"
                    ? await seam.run((ctx) => updateUser(ctx, current(seam, user), { primary_email: s.value }))
                    : null;
          // The only refusal one user can meet alone: the same address twice (upstream's plain 400).
          if (outcome && !outcome.ok) expect(outcome.error.message).toBe("Contact channel already exists");
          expectMirrored(seam, user);
        }
      }),
      { numRuns: 40 },
    );
  });
});

describe("channel writes", () => {
  it("a new primary channel demotes the old one; turning its sign-in off and deleting it carry over to the user", async () => {
    const seam = opSeam();
    const user = await seam.addUser({ primary_email: "old@example.com", primary_email_auth_enabled: true });
    const added = await seam.ok((ctx) =>
      createChannel(ctx, current(seam, user), {
        type: "email",
        value: "new@example.com",
        is_primary: true,
        used_for_auth: true,
      }),
    );
    expect((await seam.ok((ctx) => listChannels(ctx, user.id))).map((c) => [c.value, c.isPrimary])).toEqual([
      ["old@example.com", false],
      ["new@example.com", true],
    ]);
    expect(current(seam, user)).toMatchObject({
      primaryEmail: "new@example.com",
      primaryEmailAuthEnabled: true,
      primaryEmailVerified: false,
    });
    await seam.ok((ctx) => updateChannel(ctx, current(seam, user), channel(seam, added.id), { used_for_auth: false }));
    expect(current(seam, user).primaryEmailAuthEnabled).toBe(false);
    await seam.ok((ctx) => deleteChannel(ctx, current(seam, user), channel(seam, added.id)));
    expect(current(seam, user)).toMatchObject({
      primaryEmail: null,
      primaryEmailVerified: false,
      primaryEmailAuthEnabled: false,
    });
  });

  it("a changed address is unverified unless the server says otherwise; a user has each address once (plain 400)", async () => {
    const seam = opSeam();
    const user = await seam.addUser();
    const made = await seam.ok((ctx) =>
      createChannel(ctx, current(seam, user), {
        type: "email",
        value: "v@example.com",
        used_for_auth: false,
        is_verified: true,
      }),
    );
    expect(
      (
        await seam.ok((ctx) =>
          updateChannel(ctx, current(seam, user), channel(seam, made.id), { value: "w@example.com" }),
        )
      ).isVerified,
    ).toBe(false);
    expect(
      (
        await seam.ok((ctx) =>
          updateChannel(ctx, current(seam, user), channel(seam, made.id), {
            value: "x@example.com",
            is_verified: true,
          }),
        )
      ).isVerified,
    ).toBe(true);
    const twice = await seam.refuses(
      (ctx) => createChannel(ctx, current(seam, user), { type: "email", value: "X@example.com", used_for_auth: false }),
      400,
    );
    expect(twice.message).toBe("Contact channel already exists");
  });

  it("stores addresses normalized (trimmed, lower case); an address sent again, even unchanged, is unverified", async () => {
    const seam = opSeam();
    const user = await seam.addUser();
    const made = await seam.ok((ctx) =>
      createChannel(ctx, current(seam, user), {
        type: "email",
        value: " Mixed.Case@Example.COM ",
        used_for_auth: false,
        is_verified: true,
      }),
    );
    expect(made.value).toBe("mixed.case@example.com");
    const resent = await seam.ok((ctx) =>
      updateChannel(ctx, current(seam, user), channel(seam, made.id), { value: "MIXED.case@example.com" }),
    );
    expect([resent.value, resent.isVerified]).toEqual(["mixed.case@example.com", false]);
  });

  it("refuses an address another user signs in with, on create and when turning sign-in on, in any letter case", async () => {
    const seam = opSeam();
    await seam.addUser({ primary_email: "taken@example.com", primary_email_auth_enabled: true });
    const other = await seam.addUser();
    const error = await seam.refuses(
      (ctx) =>
        createChannel(ctx, current(seam, other), { type: "email", value: "TAKEN@example.com", used_for_auth: true }),
      "CONTACT_CHANNEL_ALREADY_USED_FOR_AUTH_BY_SOMEONE_ELSE",
    );
    // The address named as stored: normalized, as the real handler normalizes it before looking.
    expect(error.details).toEqual({
      type: "email",
      contact_channel_value: "taken@example.com",
      would_work_if_email_was_verified: false,
    });
    const plain = await seam.ok((ctx) =>
      createChannel(ctx, current(seam, other), { type: "email", value: "taken@example.com", used_for_auth: false }),
    );
    await seam.refuses(
      (ctx) => updateChannel(ctx, current(seam, other), channel(seam, plain.id), { used_for_auth: true }),
      "CONTACT_CHANNEL_ALREADY_USED_FOR_AUTH_BY_SOMEONE_ELSE",
    );
  });

  it("another user's channel is upstream's plain not-found, worded by use", async () => {
    const seam = opSeam();
    const owner = await seam.addUser({ primary_email: "o@example.com" });
    const other = await seam.addUser();
    const id = (await seam.ok((ctx) => listChannels(ctx, owner.id)))[0]!.id;
    expect((await seam.refuses((ctx) => requireChannel(ctx, other, id), 404)).message).toBe(
      "Contact channel not found.",
    );
    expect((await seam.refuses((ctx) => requireChannel(ctx, other, id, "write"), 400)).message).toBe(
      "Contact channel not found",
    );
    expect((await seam.refuses((ctx) => requireChannel(ctx, other, id, "verify"), 404)).message).toBe(
      "Contact channel not found",
    );
  });
});

describe("email verification", () => {
  it("the emailed code checks without being used, then verifies the channel and the user's primary email once", async () => {
    const seam = opSeam();
    const user = await seam.addUser({ primary_email: "v@example.com", primary_email_auth_enabled: true });
    const primary = (await seam.ok((ctx) => listChannels(ctx, user.id)))[0]!;
    await seam.ok((ctx) => sendChannelVerification(ctx, seam.project(), current(seam, user), primary, CALLBACK));
    const code = lastCode(seam, "v@example.com")!;
    await seam.ok((ctx) => verifyChannel(ctx, seam.project().id, code, { consume: false }));
    expect(channel(seam, primary.id).isVerified).toBe(false);
    await seam.ok((ctx) => verifyChannel(ctx, seam.project().id, code, { consume: true }));
    expect([channel(seam, primary.id).isVerified, current(seam, user).primaryEmailVerified]).toEqual([true, true]);
    await seam.refuses(
      (ctx) => verifyChannel(ctx, seam.project().id, code, { consume: true }),
      "VERIFICATION_CODE_ALREADY_USED",
    );
    await seam.refuses(
      (ctx) => sendChannelVerification(ctx, seam.project(), current(seam, user), channel(seam, primary.id), CALLBACK),
      "EMAIL_ALREADY_VERIFIED",
    );
  });

  it("refuses an untrusted callback; the legacy route takes the primary email only", async () => {
    const seam = opSeam();
    const user = await seam.addUser({ primary_email: "v@example.com" });
    const primary = (await seam.ok((ctx) => listChannels(ctx, user.id)))[0]!;
    await seam.refuses(
      (ctx) =>
        sendChannelVerification(ctx, seam.project(), current(seam, user), primary, "https://evil.example.net/cb"),
      "REDIRECT_URL_NOT_WHITELISTED",
    );
    const error = await seam.refuses(
      (ctx) => sendPrimaryVerification(ctx, seam.project(), current(seam, user), "someone@example.com", CALLBACK),
      "EMAIL_IS_NOT_PRIMARY_EMAIL",
    );
    expect(error.details).toEqual({ email: "someone@example.com", primary_email: "v@example.com" });
    await seam.ok((ctx) =>
      sendPrimaryVerification(ctx, seam.project(), current(seam, user), "v@example.com", CALLBACK),
    );
  });

  it("sign-up with an untrusted verification callback is refused whole: no user, no channel, no email", async () => {
    const seam = opSeam();
    await seam.refuses(
      asClient(),
      (ctx) =>
        passwordSignUp(ctx, {
          email: "n@example.com",
          password: "long enough",
          verification_callback_url: "https://evil.example.net/cb",
        }),
      "REDIRECT_URL_NOT_WHITELISTED",
    );
  });

  it("a code lives 7 days by the clock; a channel deleted after sending is upstream's plain 400", async () => {
    const seam = opSeam();
    const user = await seam.addUser({ primary_email: "v@example.com" });
    const extra = await seam.ok((ctx) =>
      createChannel(ctx, current(seam, user), { type: "email", value: "x@example.com", used_for_auth: false }),
    );
    const primary = (await seam.ok((ctx) => listChannels(ctx, user.id)))[0]!;
    await seam.ok((ctx) => sendChannelVerification(ctx, seam.project(), current(seam, user), primary, CALLBACK));
    await seam.ok((ctx) => sendChannelVerification(ctx, seam.project(), current(seam, user), extra, CALLBACK));
    const [expiring, orphan] = [lastCode(seam, "v@example.com")!, lastCode(seam, "x@example.com")!];
    await seam.ok((ctx) => deleteChannel(ctx, current(seam, user), channel(seam, extra.id)));
    expect(
      (await seam.refusesSpendingCode((ctx) => verifyChannel(ctx, seam.project().id, orphan, { consume: true }), 400))
        .message,
    ).toBe("Contact channel not found. Was your contact channel deleted?");
    seam.clock.advance(7 * 24 * 3_600_000);
    await seam.refuses(
      (ctx) => verifyChannel(ctx, seam.project().id, expiring, { consume: true }),
      "VERIFICATION_CODE_EXPIRED",
    );
  });
});

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { devProjectSeed } from "@authsim/fixtures";
import { INTERNAL_PROJECT_ID } from "@authsim/sdk/contract";
import type { UserRecord } from "../../store/records.ts";
import type { OpContext } from "../context.ts";
import { devSeedWith, opSeam, type OpSeam } from "../../../test-support/op-seam.ts";
import { passwordSignIn } from "../sign-in/password-auth.ts";
import { openSession } from "../sign-in/sessions.ts";
import { createUser, deleteUser, listUsers, updateUser } from "./users.ts";
import { createChannel } from "./contact-channels.ts";

/** Users: the server's create, update, delete and list rules (protocol.md §5.2), at the ops' seam. */

const PROJECT = devProjectSeed.id;
const signsIn = async (seam: OpSeam, email: string, password: string) =>
  (await seam.run({ type: "client" }, (ctx) => passwordSignIn(ctx, { email, password }))).ok;
const current = (seam: OpSeam, user: UserRecord) => seam.tables.users.get(user.id)!;

describe("createUser", () => {
  it("a password implies sign-in by the primary email, and takes any length from a server", async () => {
    const seam = opSeam();
    const user = await seam.addUser({ primary_email: "grace@example.com", password: "short", display_name: "" });
    expect(user).toMatchObject({
      primaryEmailAuthEnabled: true,
      primaryEmailVerified: false,
      displayName: null,
      projectId: PROJECT,
    });
    expect(await signsIn(seam, "grace@example.com", "short")).toBe(true);
  });

  it("refuses a second user with the same sign-in address, in any letter case, with USER_EMAIL_ALREADY_EXISTS", async () => {
    const seam = opSeam();
    await seam.addUser({ primary_email: "ada@example.com", primary_email_auth_enabled: true });
    await seam.refuses(
      (ctx) => createUser(ctx, PROJECT, { primary_email: "ADA@example.com", primary_email_auth_enabled: true }),
      "USER_EMAIL_ALREADY_EXISTS",
    );
    // The same address not used for sign-in is anyone's.
    expect(
      (
        await seam.run((ctx) =>
          createUser(ctx, PROJECT, { primary_email: "ada@example.com", primary_email_auth_enabled: false }),
        )
      ).ok,
    ).toBe(true);
  });

  it("answers the real plain-text 400s for flags without an address and for password with password_hash", async () => {
    const seam = opSeam();
    const create = (body: Parameters<typeof createUser>[2]) => (ctx: Parameters<typeof createUser>[0]) =>
      createUser(ctx, PROJECT, body);
    expect((await seam.refuses(create({ primary_email_auth_enabled: true }), 400)).message).toBe(
      "primary_email_auth_enabled cannot be true without primary_email",
    );
    expect((await seam.refuses(create({ primary_email_verified: true }), 400)).message).toBe(
      "primary_email_verified cannot be true without primary_email",
    );
    expect(
      (await seam.refuses(create({ password: "a password", password_hash: "$2a$10$" + "a".repeat(53) }), 400)).message,
    ).toBe("Cannot set both password and password_hash at the same time.");
  });

  it("imports a bcrypt hash of cost at most 16 and refuses any other hash with the plain-text 400", async () => {
    const seam = opSeam();
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom("2a", "2b", "2y", "2x"),
        fc.integer({ min: 0, max: 99 }),
        fc.integer({ min: 50, max: 56 }),
        async (variant, cost, length) => {
          const hash = `$${variant}$${String(cost).padStart(2, "0")}$${"a".repeat(length)}`;
          const importable = variant !== "2x" && cost <= 16 && length === 53;
          const create = (ctx: Parameters<typeof createUser>[0]) => createUser(ctx, PROJECT, { password_hash: hash });
          if (importable) expect((await seam.run(create)).ok).toBe(true);
          else
            expect((await seam.refuses(create, 400)).message).toBe(
              "Invalid password hash. Make sure it's a supported algorithm in Modular Crypt Format.",
            );
        },
      ),
      { numRuns: 60 },
    );
  });
});

describe("updateUser", () => {
  it("a new password signs in and ends every session of the user; other users keep theirs", async () => {
    const seam = opSeam();
    const user = await seam.addUser({ primary_email: "u@example.com", password: "first password" });
    const other = await seam.addUser({ primary_email: "o@example.com" });
    const mine = [await seam.ok((ctx) => openSession(ctx, user)), await seam.ok((ctx) => openSession(ctx, user))];
    const theirs = await seam.ok((ctx) => openSession(ctx, other));
    await seam.ok((ctx) => updateUser(ctx, current(seam, user), { password: "tiny" }));
    expect(mine.map((s) => seam.tables.sessions.has(s.session.id))).toEqual([false, false]);
    expect(seam.tables.sessions.has(theirs.session.id)).toBe(true);
    expect(await signsIn(seam, "u@example.com", "tiny")).toBe(true);
    expect(await signsIn(seam, "u@example.com", "first password")).toBe(false);
  });

  it("a new primary address is unverified; removing it turns verification and sign-in off", async () => {
    const seam = opSeam();
    const user = await seam.addUser({
      primary_email: "old@example.com",
      primary_email_verified: true,
      primary_email_auth_enabled: true,
    });
    await seam.ok((ctx) => updateUser(ctx, current(seam, user), { primary_email: "new@example.com" }));
    expect(current(seam, user)).toMatchObject({
      primaryEmail: "new@example.com",
      primaryEmailVerified: false,
      primaryEmailAuthEnabled: true,
    });
    await seam.ok((ctx) => updateUser(ctx, current(seam, user), { primary_email: null }));
    expect(current(seam, user)).toMatchObject({
      primaryEmail: null,
      primaryEmailVerified: false,
      primaryEmailAuthEnabled: false,
    });
  });

  it("lifting an admin restriction clears its reason and private details", async () => {
    const seam = opSeam();
    const user = await seam.addUser({
      restricted_by_admin: true,
      restricted_by_admin_reason: "spam",
      restricted_by_admin_private_details: "ticket 7",
    });
    await seam.ok((ctx) => updateUser(ctx, current(seam, user), { restricted_by_admin: false }));
    expect(current(seam, user)).toMatchObject({
      restrictedByAdmin: false,
      restrictedByAdminReason: null,
      restrictedByAdminPrivateDetails: null,
    });
  });

  it("refuses taking another user's sign-in address, and selecting an unknown team, changing nothing", async () => {
    const seam = opSeam();
    await seam.addUser({ primary_email: "taken@example.com", primary_email_auth_enabled: true });
    const user = await seam.addUser({ primary_email: "mine@example.com", primary_email_auth_enabled: true });
    await seam.refuses(
      (ctx) => updateUser(ctx, current(seam, user), { primary_email: "Taken@example.com", display_name: "x" }),
      "USER_EMAIL_ALREADY_EXISTS",
    );
    const team = "5d0f2a3b-4c5d-4e6f-8a7b-9c0d1e2f3a4b";
    expect(
      (
        await seam.refuses(
          (ctx) => updateUser(ctx, current(seam, user), { selected_team_id: team, password: "a new one" }),
          "TEAM_NOT_FOUND",
        )
      ).details,
    ).toEqual({ team_id: team });
  });
});

describe("deleteUser", () => {
  it("removes the user with every session of theirs", async () => {
    const seam = opSeam();
    const user = await seam.addUser({ primary_email: "gone@example.com", password: "a password" });
    const sessions = [await seam.ok((ctx) => openSession(ctx, user)), await seam.ok((ctx) => openSession(ctx, user))];
    await seam.ok((ctx) => deleteUser(ctx, current(seam, user)));
    expect(seam.tables.users.has(user.id)).toBe(false);
    expect(sessions.some((s) => seam.tables.sessions.has(s.session.id))).toBe(false);
    expect(await signsIn(seam, "gone@example.com", "a password")).toBe(false);
  });
});

describe("primary emails", () => {
  it("are stored normalized (trimmed, lower case) on create and update, as the real users handler stores them", async () => {
    const seam = opSeam();
    const made = await seam.ok((ctx) => createUser(ctx, PROJECT, { primary_email: " Ada@Example.COM " }));
    expect(made.primaryEmail).toBe("ada@example.com");
    // The answer is the user before its personal team is made, as the real handler reads it back: none selected.
    const withTeams = opSeam({ seed: devSeedWith({ create_team_on_sign_up: true }) });
    const created = await withTeams.ok((ctx) => createUser(ctx, PROJECT, { primary_email: "t@example.com" }));
    expect([created.selectedTeamId, withTeams.tables.users.get(created.id)?.selectedTeamId]).toEqual([
      null,
      expect.any(String),
    ]);
    const moved = await seam.ok((ctx) => updateUser(ctx, current(seam, made), { primary_email: "Grace@Example.com" }));
    expect([moved.primaryEmail, seam.tables.contactChannels.lookup("primary", made.id)?.value]).toEqual([
      "grace@example.com",
      "grace@example.com",
    ]);
  });
});

describe("sign-in methods a create or update turns on", () => {
  it("must be on in the project (the real plain 400s); passkey sign-in only by registering a passkey", async () => {
    const seam = opSeam({ seed: devSeedWith({ magic_link_enabled: false, credential_enabled: false }) });
    const user = await seam.addUser({ primary_email: "m@example.com" });
    const texts = async (run: (ctx: OpContext) => unknown) => (await seam.refuses(run, 400)).message;
    expect([
      await texts((ctx) => createUser(ctx, PROJECT, { otp_auth_enabled: true })),
      await texts((ctx) => createUser(ctx, PROJECT, { primary_email: "p@example.com", password: "a password" })),
      await texts((ctx) => updateUser(ctx, current(seam, user), { otp_auth_enabled: true })),
      await texts((ctx) => updateUser(ctx, current(seam, user), { password: "a password" })),
      await texts((ctx) => updateUser(ctx, current(seam, user), { passkey_auth_enabled: true })),
    ]).toEqual([
      "OTP auth not enabled in the project",
      "Password auth not enabled in the project",
      "OTP auth not enabled in the project",
      "Password auth not enabled in the project",
      "Cannot manually enable passkey auth, it is enabled iff there is a passkey auth method",
    ]);
    // Turning methods off, or removing a password, is always allowed.
    await seam.ok((ctx) =>
      updateUser(ctx, current(seam, user), { otp_auth_enabled: false, passkey_auth_enabled: false, password: null }),
    );
  });
});

describe("listUsers", () => {
  /** Users signed up one second apart, so signed_up_at orders them; returns their ids oldest first. */
  async function usersNamed(seam: OpSeam, names: readonly string[]): Promise<string[]> {
    const ids: string[] = [];
    for (const name of names) {
      ids.push((await seam.addUser({ primary_email: `${name}@example.com`, display_name: name })).id);
      seam.clock.advance(1_000);
    }
    return ids;
  }
  const NAMES = ["alpha", "bravo", "charlie", "delta", "echo"];

  it("pages through every user exactly once, in sign-up order either way, for any page size", async () => {
    const seam = opSeam();
    const ids = await usersNamed(seam, NAMES);
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 7 }), fc.boolean(), async (limit, desc) => {
        const seen: string[] = [];
        let cursor: string | undefined;
        for (let pages = 0; pages < 10; pages++) {
          const page = await seam.ok((ctx) => listUsers(ctx, PROJECT, { limit, desc, ...(cursor ? { cursor } : {}) }));
          expect(page.items.length).toBeLessThanOrEqual(limit);
          seen.push(...page.items.map((u) => u.id));
          if (page.nextCursor === null) break;
          cursor = page.nextCursor;
        }
        expect(seen).toEqual(desc ? [...ids].reverse() : ids);
      }),
      { numRuns: 20 },
    );
  });

  it("filters by free text over name and email, case-insensitively, and keeps to the project", async () => {
    const seam = opSeam();
    const ids = await usersNamed(seam, NAMES);
    await seam.addUser({ primary_email: "charlie@elsewhere.com" }, INTERNAL_PROJECT_ID);
    expect((await seam.ok((ctx) => listUsers(ctx, PROJECT, { query: "CHARLIE" }))).items.map((u) => u.id)).toEqual([
      ids[2],
    ]);
    expect((await seam.ok((ctx) => listUsers(ctx, PROJECT, { query: "example.com" }))).items).toHaveLength(5);
  });

  it("searches as the real listing: the text as typed in names and every contact channel, an id only whole", async () => {
    const seam = opSeam();
    const spaced = await seam.addUser({ primary_email: "jd@example.com", display_name: "John Doe" });
    const other = await seam.addUser({ primary_email: "main@example.com" });
    await seam.ok((ctx) =>
      createChannel(ctx, ctx.tables.users.get(other.id)!, {
        type: "email",
        value: "second-address@example.org",
        used_for_auth: false,
      }),
    );
    const found = async (query: string) =>
      (await seam.ok((ctx) => listUsers(ctx, PROJECT, { query }))).items.map((u) => u.id);
    expect(await found("john doe")).toEqual([spaced.id]);
    expect(await found("johndoe")).toEqual([]);
    expect(await found("SECOND-ADDRESS")).toEqual([other.id]);
    expect(await found(` ${other.id.toUpperCase()} `)).toEqual([]);
    expect(await found(` ${other.id} `)).toEqual([other.id]);
    expect(await found(other.id.slice(0, 8))).toEqual([]);
  });

  it("orders users signed up in the same millisecond by id, in the listing's direction", async () => {
    const seam = opSeam();
    const ids: string[] = [];
    for (const name of NAMES) ids.push((await seam.addUser({ primary_email: `${name}@example.com` })).id);
    const sorted = [...ids].sort();
    const list = async (desc: boolean) =>
      (await seam.ok((ctx) => listUsers(ctx, PROJECT, { desc }))).items.map((u) => u.id);
    expect([await list(false), await list(true)]).toEqual([sorted, [...sorted].reverse()]);
  });

  it("hides anonymous users unless include_anonymous; only_anonymous needs include_anonymous (plain 400)", async () => {
    const seam = opSeam();
    const [named] = await usersNamed(seam, ["named"]);
    const anon = await seam.addUser({ is_anonymous: true });
    const list = async (q: Parameters<typeof listUsers>[2]) =>
      (await seam.ok((ctx) => listUsers(ctx, PROJECT, q))).items.map((u) => u.id);
    expect(await list({})).toEqual([named]);
    expect(await list({ include_anonymous: true })).toEqual([named, anon.id]);
    expect(await list({ include_anonymous: true, only_anonymous: true })).toEqual([anon.id]);
    expect((await seam.refuses((ctx) => listUsers(ctx, PROJECT, { only_anonymous: true }), 400)).message).toBe(
      "only_anonymous=true requires include_anonymous=true",
    );
  });
});

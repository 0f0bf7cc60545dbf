import { describe, expect, it } from "vitest";
import {
  anonymousSignUp,
  api,
  DEV,
  expectJson,
  freshEmail,
  INTERNAL,
  server,
  signUp,
  START_MILLIS,
} from "../../../test-support/api.ts";
import { useSmtp } from "../../../test-support/admin.ts";
import { FILLED, useAnalyticsCopy } from "../../../test-support/analytics-copy.ts";
import { PROJECT_TABLES } from "./analytics-catalog.ts";

/** The ClickHouse copy of the synced tables read through POST /internal/analytics/query (analytics-synced-tables.ts): each table's rows. */

const { provider, query, call, createUser, fillEveryTable } = useAnalyticsCopy();
const createTeam = (displayName: string) => call("/teams", { display_name: displayName }, "POST", 201);
const START = "2025-06-15 00:00:00.000";

describe("users", () => {
  it("a user's row has the view's columns and ClickHouse's formats: 0/1 flags, DateTime64 text, metadata as jsonb text", async () => {
    const user = await createUser({
      primary_email: "copy@example.com",
      primary_email_verified: true,
      display_name: "Copy",
      client_metadata: { zz: 1, a: { yy: [1, { b: 2, a: 1 }], x: null } },
    });
    expect(await query("SELECT * FROM users WHERE id = {id:UUID}", { id: user.id })).toEqual([
      {
        project_id: DEV.id,
        branch_id: "main",
        id: user.id,
        display_name: "Copy",
        profile_image_url: null,
        primary_email: "copy@example.com",
        primary_email_verified: 1,
        signed_up_at: START,
        // jsonb's key order: shorter keys first.
        client_metadata: '{"a":{"x":null,"yy":[1,{"a":1,"b":2}]},"zz":1}',
        client_read_only_metadata: "{}",
        server_metadata: "{}",
        is_anonymous: 0,
        restricted_by_admin: 0,
        restricted_by_admin_reason: null,
        restricted_by_admin_private_details: null,
      },
    ]);
  });

  it("an update shows at once, a deleted user is gone, anonymous users are flagged", async () => {
    const user = await createUser({ primary_email: "upd@example.com" });
    await call(`/users/${user.id}`, { display_name: "After" }, "PATCH");
    const byEmail = "SELECT primary_email, display_name FROM users WHERE primary_email = {email:String}";
    expect(await query(byEmail, { email: "upd@example.com" })).toEqual([
      { primary_email: "upd@example.com", display_name: "After" },
    ]);
    await expectJson(await api(provider(), `/users/${user.id}`, { method: "DELETE", headers: server() }));
    expect(await query(byEmail, { email: "upd@example.com" })).toEqual([]);

    const anonymous = await anonymousSignUp(provider());
    expect(
      await query("SELECT is_anonymous, primary_email FROM users WHERE id = {id:String}", { id: anonymous.user_id }),
    ).toEqual([{ is_anonymous: 1, primary_email: null }]);
  });

  it("a project sees only its own rows, in every synced table", async () => {
    const mine = await fillEveryTable(DEV);
    const theirs = await fillEveryTable(INTERNAL);
    for (const [project, own, other] of [
      [DEV, mine, theirs],
      [INTERNAL, theirs, mine],
    ] as const) {
      for (const table of FILLED) {
        const rows = await query(`SELECT * FROM ${table}`, {}, project);
        expect([table, rows.length > 0]).toEqual([table, true]);
        expect(rows.filter((r) => r.project_id !== project.id || r.branch_id !== "main")).toEqual([]);
        const userIds = rows.map((r) => (table === "users" ? r.id : r.user_id));
        if (table !== "teams" && table !== "team_invitations" && table !== "events") {
          expect(userIds).toContain(own.userId);
          expect(userIds).not.toContain(other.userId);
        }
      }
    }
  });
});

describe("the other synced tables", () => {
  it("teams, member profiles, team and project permissions, with the grants' own time", async () => {
    const user = await createUser({ primary_email: freshEmail("member") });
    const team = await createTeam("Copy Team");
    provider().clock.advance(60_000);
    await call(`/team-memberships/${team.id}/${user.id}`, {}, "POST", 201);
    provider().clock.advance(60_000);
    await call(`/team-permissions/${team.id}/${user.id}/$read_members`, {}, "POST", 201);

    expect(await query("SELECT * FROM teams WHERE id = {id:UUID}", { id: team.id })).toEqual([
      {
        project_id: DEV.id,
        branch_id: "main",
        id: team.id,
        display_name: "Copy Team",
        profile_image_url: null,
        created_at: START,
        client_metadata: "{}",
        client_read_only_metadata: "{}",
        server_metadata: "{}",
      },
    ]);
    expect(await query("SELECT * FROM team_member_profiles WHERE team_id = {t:UUID}", { t: team.id })).toEqual([
      {
        project_id: DEV.id,
        branch_id: "main",
        team_id: team.id,
        user_id: user.id,
        display_name: null,
        profile_image_url: null,
        created_at: "2025-06-15 00:01:00.000",
      },
    ]);
    const granted = await query(
      "SELECT team_id, user_id, id, created_at FROM team_permissions WHERE team_id = {t:UUID} ORDER BY id",
      { t: team.id },
    );
    // The member's default grant when they joined, then the direct one.
    expect(granted).toContainEqual({
      team_id: team.id,
      user_id: user.id,
      id: "$read_members",
      created_at: "2025-06-15 00:02:00.000",
    });
    expect(
      granted.filter((r) => r.id !== "$read_members").every((r) => r.created_at === "2025-06-15 00:01:00.000"),
    ).toBe(true);

    await expectJson(
      await api(provider(), `/team-permissions/${team.id}/${user.id}/$read_members`, {
        method: "DELETE",
        headers: server(),
      }),
    );
    expect(await query("SELECT id FROM team_permissions WHERE id = '$read_members'")).toEqual([]);
  });

  it("contact channels, refresh tokens and notification preferences", async () => {
    const user = await signUp(provider());
    expect(await query("SELECT * FROM contact_channels WHERE user_id = {u:UUID}", { u: user.user_id })).toEqual([
      {
        project_id: DEV.id,
        branch_id: "main",
        id: expect.any(String),
        user_id: user.user_id,
        type: "EMAIL",
        value: user.email,
        is_primary: 1,
        is_verified: 0,
        used_for_auth: 1,
        created_at: START,
      },
    ]);
    const tokens = await query("SELECT * FROM refresh_tokens WHERE user_id = {u:UUID}", { u: user.user_id });
    expect(tokens).toEqual([
      {
        project_id: DEV.id,
        branch_id: "main",
        id: expect.any(String),
        user_id: user.user_id,
        created_at: START,
        last_used_at: START,
        is_impersonation: 0,
        expires_at: expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3}$/),
      },
    ]);

    const category = "4f6f8873-3d04-46bd-8bef-18338b1a1b4c";
    await call(`/emails/notification-preference/${user.user_id}/${category}`, { enabled: false }, "PATCH");
    expect(await query("SELECT * FROM notification_preferences WHERE user_id = {u:UUID}", { u: user.user_id })).toEqual(
      [
        {
          project_id: DEV.id,
          branch_id: "main",
          user_id: user.user_id,
          notification_category_id: category,
          enabled: 0,
        },
      ],
    );
  });

  it("team invitations: the team's name, the expiry as a quoted Int64", async () => {
    const team = await createTeam("Invite Team");
    await call("/team-invitations/send-code", {
      team_id: team.id,
      email: "invited@example.com",
      callback_url: "http://localhost:8102/handler/team-invitation",
    });
    const [row] = await query("SELECT * FROM team_invitations WHERE recipient_email = 'invited@example.com'");
    expect(row).toEqual({
      project_id: DEV.id,
      branch_id: "main",
      id: expect.any(String),
      team_id: team.id,
      team_display_name: "Invite Team",
      recipient_email: "invited@example.com",
      expires_at_millis: expect.stringMatching(/^\d+$/),
      created_at: START,
    });
    expect(Number(row!.expires_at_millis)).toBeGreaterThan(START_MILLIS);
  });

  it("email outboxes: enum names lower case with hyphens, as the copy writes them", async () => {
    await useSmtp(provider());
    const user = await createUser({ primary_email: "outbox@example.com", primary_email_verified: true });
    await call("/emails/send-email", {
      user_ids: [user.id],
      html: "<p>hi</p>",
      subject: "Copy Subject",
      notification_category_name: "Transactional",
    });
    // The queue's grace passes on the emulated clock; the worker then renders and sends.
    provider().clock.advance(60_000);
    await provider().work.idle();
    const rows = await query(
      "SELECT status, simple_status, created_with, is_high_priority, is_transactional, subject, is_paused, send_retries, skipped_reason, rendered_at IS NOT NULL AS rendered, updated_at >= created_at AS later FROM email_outboxes",
    );
    expect(rows).toEqual([
      {
        status: "sent",
        simple_status: "ok",
        created_with: "programmatic-call",
        is_high_priority: 0,
        is_transactional: 1,
        subject: "Copy Subject",
        is_paused: 0,
        send_retries: 0,
        skipped_reason: null,
        rendered: 1,
        later: 1,
      },
    ]);
    const [row] = await query("SELECT * FROM email_outboxes");
    expect(Object.keys(row!)).toEqual(PROJECT_TABLES.email_outboxes!.columns.map(([name]) => name));
  });

  it("connected accounts", async () => {
    const user = await createUser({ primary_email: freshEmail("oauth") });
    await call(
      "/oauth-providers",
      {
        user_id: user.id,
        provider_config_id: "github",
        account_id: "copy-account-1",
        email: "gh@example.com",
        allow_sign_in: false,
        allow_connected_accounts: true,
      },
      "POST",
      201,
    );
    expect(
      await query("SELECT * FROM connected_accounts WHERE provider_account_id = {a:String} AND user_id = {u:UUID}", {
        a: "copy-account-1",
        u: user.id,
      }),
    ).toEqual([
      {
        project_id: DEV.id,
        branch_id: "main",
        user_id: user.id,
        provider: "github",
        provider_account_id: "copy-account-1",
        created_at: START,
      },
    ]);
  });
});

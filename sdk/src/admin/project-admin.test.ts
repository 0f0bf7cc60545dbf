import { describe, expect, it } from "vitest";
import type { AdminProjectJson } from "../contract/areas/projects.ts";
import { LOCALHOST_IN_PRODUCTION_MESSAGE } from "../urls/domains.ts";
import { manualClock } from "../runtime/clock.ts";
import { fakeFetch, json, recordingSleep, type Responder } from "../test-support/fake-fetch.ts";
import { router } from "../test-support/router.ts";
import { StackAdminApp } from "./admin-app.ts";
import { StackServerApp } from "../server/server-app.ts";

/** The admin project's calls, the email calls and sendEmail on the wire (sdk-surface.md §8, §17, §18, §20). */

const PROJECT_ID = "5a4b3c2d-1e0f-4a9b-8c7d-6e5f4a3b2c1d";
const T0 = 1_750_000_000_000;

const projectJson: AdminProjectJson = {
  id: PROJECT_ID,
  display_name: "Demo",
  description: null,
  created_at_millis: T0,
  is_production_mode: false,
  is_development_environment: false,
  owner_team_id: null,
  config: {
    sign_up_enabled: true,
    credential_enabled: true,
    magic_link_enabled: false,
    passkey_enabled: false,
    client_team_creation_enabled: false,
    client_user_deletion_enabled: false,
    allow_localhost: true,
    allow_user_api_keys: false,
    allow_team_api_keys: false,
    enabled_oauth_providers: [],
    domains: [{ domain: "http://10.0.0.1", handler_path: "/handler" }],
    oauth_providers: [],
    email_config: { type: "shared" },
    email_theme: "default-light",
    create_team_on_sign_up: false,
    team_creator_default_permissions: [],
    team_member_default_permissions: [],
    user_default_permissions: [],
    oauth_account_merge_strategy: "link_method",
  },
};

function setup(responder: Responder, projectId = PROJECT_ID) {
  const ff = fakeFetch(responder);
  const options = {
    projectId,
    baseUrl: "http://api.test",
    secretServerKey: "ssk",
    fetch: ff.fetch,
    clock: manualClock(T0),
    sleep: recordingSleep().sleep,
  };
  return {
    admin: new StackAdminApp({ ...options, superSecretAdminKey: "sak" }),
    server: new StackServerApp(options),
    calls: ff.calls,
  };
}
const bodyOf = (call: { body: string | undefined }): unknown => JSON.parse(call.body ?? "null");

describe("the admin project", () => {
  it("update sends the snake_case admin update, and requirePublishableClientKey as a project-level override string", async () => {
    const { admin, calls } = setup(
      router({
        "GET /internal/projects/current": () => json(projectJson),
        "PATCH /internal/projects/current": () => json(projectJson),
        "PATCH /internal/config/override/project": () => json({ success: true }),
      }),
    );
    const project = await admin.getProject();
    await project.update({
      displayName: "New",
      requirePublishableClientKey: true,
      config: {
        domains: [{ domain: "https://a.example.com", handlerPath: "/h" }],
        oauthProviders: [
          { id: "github", type: "shared" },
          { id: "discord", type: "standard", clientId: "c", clientSecret: "s" },
        ],
        emailConfig: {
          type: "standard",
          host: "smtp",
          port: 25,
          username: "u",
          password: "p",
          senderName: "N",
          senderEmail: "n@example.com",
        },
        teamMemberDefaultPermissions: [{ id: "team_member" }],
      },
    });
    expect(bodyOf(calls[1]!)).toEqual({
      display_name: "New",
      config: {
        domains: [{ domain: "https://a.example.com", handler_path: "/h" }],
        oauth_providers: [
          { id: "github", type: "shared" },
          { id: "discord", type: "standard", client_id: "c", client_secret: "s" },
        ],
        email_config: {
          type: "standard",
          host: "smtp",
          port: 25,
          username: "u",
          password: "p",
          sender_name: "N",
          sender_email: "n@example.com",
        },
        team_member_default_permissions: [{ id: "team_member" }],
      },
    });
    expect(bodyOf(calls[2]!)).toEqual({
      config_override_string: JSON.stringify({ "project.requirePublishableClientKey": true }),
    });
  });

  it("getProductionModeErrors gives spec §5's checks with the dashboard's fix URL", async () => {
    const { admin } = setup(router({ "GET /internal/projects/current": () => json(projectJson) }));
    const errors = await (await admin.getProject()).getProductionModeErrors();
    expect(errors[0]).toEqual({
      message: LOCALHOST_IN_PRODUCTION_MESSAGE,
      relativeFixUrl: `/projects/${PROJECT_ID}/domains`,
    });
    expect(errors.slice(1).map((e) => e.message)).toEqual([
      "Trusted domain http://10.0.0.1 is an IP address; production mode needs a domain name",
      "Trusted domain http://10.0.0.1 does not use HTTPS, which production mode requires",
    ]);
  });

  it("refuses project JSON of another project (spec §5: the ids must match)", () => {
    const { admin } = setup(router({}), "internal");
    expect(() => admin.projectFromJson(projectJson)).toThrow(/does not match the project ID of the app \(internal\)/);
  });

  it("getConfig and the overrides carry the config as JSON strings", async () => {
    const { admin, calls } = setup(
      router({
        "GET /internal/projects/current": () => json(projectJson),
        "GET /internal/config": () => json({ config_string: JSON.stringify({ auth: { allowSignUp: true } }) }),
        "PATCH /internal/config/override/environment": () => json({ success: true }),
        "PUT /internal/config/override/branch": () => json({ success: true }),
      }),
    );
    const project = await admin.getProject();
    expect(await project.getConfig()).toEqual({ auth: { allowSignUp: true } });
    await project.updateConfig({ "auth.allowSignUp": false });
    await project.replaceConfigOverride("branch", { "apps.x": 1 });
    expect(bodyOf(calls[2]!)).toEqual({ config_override_string: '{"auth.allowSignUp":false}' });
    expect(bodyOf(calls[3]!)).toEqual({ config_string: '{"apps.x":1}', source: { type: "pushed-from-unknown" } });
  });
});

describe("email calls", () => {
  it("sendTestEmail turns a failed delivery into an error result (spec §4)", async () => {
    const { admin, calls } = setup(
      router({ "POST /internal/send-test-email": () => json({ success: false, error_message: "refused" }) }),
    );
    const smtp = { host: "h", port: 25, username: "u", password: "p", senderEmail: "s@example.com", senderName: "S" };
    expect(await admin.sendTestEmail({ recipientEmail: "r@example.com", emailConfig: smtp })).toEqual({
      status: "error",
      error: { errorMessage: "refused" },
    });
    expect(bodyOf(calls[0]!)).toEqual({
      recipient_email: "r@example.com",
      email_config: {
        host: "h",
        port: 25,
        username: "u",
        password: "p",
        sender_email: "s@example.com",
        sender_name: "S",
      },
    });
  });

  it("sendEmail sends only the fields given, with scheduledAt in milliseconds", async () => {
    const { server, calls } = setup(router({ "POST /emails/send-email": () => json({ results: [] }) }));
    await server.sendEmail({
      allUsers: true,
      templateId: "t",
      variables: { a: 1 },
      themeId: false,
      scheduledAt: new Date(T0),
    });
    expect(bodyOf(calls[0]!)).toEqual({
      all_users: true,
      template_id: "t",
      variables: { a: 1 },
      theme_id: false,
      scheduled_at_millis: T0,
    });
  });

  it("listSentEmails maps the sent list, with the first recipient as recipient", async () => {
    const { admin } = setup(
      router({
        "GET /internal/emails": () =>
          json({
            items: [
              { id: "e1", to: ["a@example.com", "b@example.com"], subject: "S", sent_at_millis: T0, error: null },
            ],
          }),
      }),
    );
    expect(await admin.listSentEmails()).toEqual([
      {
        id: "e1",
        to: ["a@example.com", "b@example.com"],
        subject: "S",
        recipient: "a@example.com",
        sentAt: new Date(T0),
      },
    ]);
  });
});

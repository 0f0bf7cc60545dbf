import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { headerNames } from "@authsim/sdk/contract";
import { devProjectSeed as dev } from "@authsim/fixtures";
import { inProcessTarget, type Target } from "../targets.ts";
import { uniqueTag } from "../suites/support.ts";

/**
 * "Redirect URLs must be on whitelisted domains" (spec §5), for every endpoint that takes one: a URL on a trusted
 * domain is accepted, and one that differs in host, scheme or port, or is on localhost while the project does not allow
 * it, is REDIRECT_URL_NOT_WHITELISTED (400). The trusted domains are generated, wildcards included; the endpoints all
 * go through the one check of fake-provider/src/domain/ops/oauth/callback-urls.ts (the domain module of sdk/src/urls/domains.ts).
 */

const label = fc.stringMatching(/^[a-z][a-z0-9]{0,7}$/);
const domainCase = fc.record({
  labels: fc.array(label, { minLength: 2, maxLength: 3 }),
  wildcard: fc.boolean(),
  path: fc.stringMatching(/^[a-z0-9]{1,8}$/),
  untrusted: fc.constantFrom("other-host", "http-scheme", "other-port", "localhost", "sibling-depth"),
});

type Headers = Record<string, string>;
const headers = (accessType: "client" | "server" | "admin", extra: Headers = {}): Headers => ({
  "content-type": "application/json",
  [headerNames.accessType]: accessType,
  [headerNames.projectId]: dev.id,
  ...(accessType === "client" ? { [headerNames.publishableClientKey]: dev.keys.publishable_client_key } : {}),
  ...(accessType === "server" ? { [headerNames.secretServerKey]: dev.keys.secret_server_key } : {}),
  ...(accessType === "admin" ? { [headerNames.superSecretAdminKey]: dev.keys.super_secret_admin_key } : {}),
  ...extra,
});

async function call(target: Target, method: string, path: string, h: Headers, body: unknown): Promise<Response> {
  return target.fetch(`${target.baseUrl}/api/v1${path}`, { method, headers: h, body: JSON.stringify(body) });
}

async function json<T>(response: Response, status = 200): Promise<T> {
  const text = await response.text();
  expect({ status: response.status, text }).toMatchObject({ status });
  return JSON.parse(text) as T;
}

/** Every redirect-taking endpoint, as one call with the URL under test. */
type Endpoint = { name: string; send: (url: string) => Promise<Response> };

async function endpoints(target: Target): Promise<Endpoint[]> {
  const signUp = await json<{ access_token: string; user_id: string }>(
    await call(target, "POST", "/auth/password/sign-up", headers("client"), {
      email: `${uniqueTag("redir")}@example.com`,
      password: "password-123",
    }),
  );
  const me = headers("client", { [headerNames.accessToken]: signUp.access_token });
  const channel = await json<{ id: string }>(
    await call(target, "POST", "/contact-channels", me, {
      user_id: "me",
      type: "email",
      value: `${uniqueTag("ch")}@example.com`,
      used_for_auth: false,
    }),
    201,
  );
  const team = await json<{ id: string }>(
    await call(target, "POST", "/teams", headers("server"), {
      display_name: "Redirects",
      creator_user_id: signUp.user_id,
    }),
    201,
  );
  const email = () => `${uniqueTag("to")}@example.com`;
  // Purchase URLs need the project's payments account (set up once; setup is idempotent).
  await json(await call(target, "POST", "/internal/payments/setup", headers("admin"), {}));
  return [
    {
      name: "sign-up verification_callback_url",
      send: (url) =>
        call(target, "POST", "/auth/password/sign-up", headers("client"), {
          email: email(),
          password: "password-123",
          verification_callback_url: url,
        }),
    },
    {
      name: "send-reset-code callback_url",
      send: (url) =>
        call(target, "POST", "/auth/password/send-reset-code", headers("client"), {
          email: email(),
          callback_url: url,
        }),
    },
    {
      name: "otp send-sign-in-code callback_url",
      send: (url) =>
        call(target, "POST", "/auth/otp/send-sign-in-code", headers("client"), { email: email(), callback_url: url }),
    },
    {
      name: "contact channel send-verification-code",
      send: (url) =>
        call(target, "POST", `/contact-channels/me/${channel.id}/send-verification-code`, me, { callback_url: url }),
    },
    {
      name: "team-invitations send-code",
      send: (url) =>
        call(target, "POST", "/team-invitations/send-code", headers("server"), {
          team_id: team.id,
          email: email(),
          callback_url: url,
        }),
    },
    {
      name: "send-sign-in-invitation",
      send: (url) =>
        call(target, "POST", "/internal/send-sign-in-invitation", headers("admin"), {
          email: email(),
          callback_url: url,
        }),
    },
    {
      name: "create-purchase-url return_url",
      send: (url) =>
        call(target, "POST", "/payments/purchases/create-purchase-url", headers("server"), {
          customer_type: "user",
          customer_id: signUp.user_id,
          offer_id: "credit-pack",
          return_url: url,
        }),
    },
  ];
}

describe("property: every redirect-taking endpoint accepts trusted URLs only", () => {
  it("accepts a URL on a trusted domain and refuses an untrusted one with REDIRECT_URL_NOT_WHITELISTED", async () => {
    await fc.assert(
      fc.asyncProperty(domainCase, async ({ labels, wildcard, path, untrusted }) => {
        const target = inProcessTarget();
        const host = labels.join(".");
        // With a wildcard the trusted domain is https://*.<host>, and the trusted URL is on one subdomain of it.
        const trustedHost = wildcard ? `app.${host}` : host;
        await json(
          await call(target, "PATCH", "/internal/projects/current", headers("admin"), {
            config: {
              allow_localhost: false,
              domains: [{ domain: `https://${wildcard ? "*." : ""}${host}`, handler_path: "/handler" }],
            },
          }),
        );
        const trustedUrl = `https://${trustedHost}/${path}?x=1`;
        const untrustedUrl = {
          "other-host": `https://x${labels[0]}.${labels.slice(1).join(".")}z/${path}`,
          "http-scheme": `http://${trustedHost}/${path}`,
          "other-port": `https://${trustedHost}:8443/${path}`,
          localhost: `http://localhost:3000/${path}`,
          // One label deeper than a single `*` reaches (or any subdomain of an exact host).
          "sibling-depth": `https://a.b.${host}/${path}`,
        }[untrusted];
        for (const endpoint of await endpoints(target)) {
          const refused = await endpoint.send(untrustedUrl);
          const text = await refused.text();
          expect({
            endpoint: endpoint.name,
            url: untrustedUrl,
            status: refused.status,
            code: refused.headers.get("x-stack-known-error"),
            text,
          }).toMatchObject({
            status: 400,
            code: "REDIRECT_URL_NOT_WHITELISTED",
          });
          const accepted = await endpoint.send(trustedUrl);
          expect({
            endpoint: endpoint.name,
            url: trustedUrl,
            status: accepted.status,
            text: await accepted.text(),
          }).toMatchObject({ status: 200 });
        }
      }),
      { numRuns: 12 },
    );
  });
});

import { SignJWT, decodeJwt, decodeProtectedHeader, generateKeyPair, type JWTPayload } from "jose";
import { beforeEach, describe, expect, it } from "vitest";
import {
  DEV,
  INTERNAL,
  anonymousSignUp,
  api,
  client,
  expectKnownError,
  expireAccessTokens,
  families,
  newProvider,
  server,
  signUp,
  type Fields,
  type TestProvider,
} from "../../test-support/api.ts";

/**
 * Request authentication, steps 1–6 of protocol.md §2.3 ("parseAuth"), probed through GET /api/v1 (every §2.3 error
 * surfaces there). Each step is also checked against a later fault in the same request: the first failure wins.
 */

const UNKNOWN_PROJECT = "0b7c1d2e-3f40-4a5b-8c6d-7e8f90a1b2c3";
const WELCOME =
  "Welcome to the Stack API endpoint! Please refer to the documentation at https://docs.stack-auth.com.\n\n";

const b64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");

describe.each(families)("request authentication with x-%s-* headers", (family) => {
  let provider: TestProvider;
  const probe = (headers: Fields, path = "/") => api(provider, path, { headers, family });

  beforeEach(() => {
    provider = newProvider();
  });

  describe("step 1–2: access type", () => {
    it("rejects a key without an access type with PROJECT_KEY_WITHOUT_ACCESS_TYPE", async () => {
      for (const key of [
        "publishableClientKey",
        "secretServerKey",
        "superSecretAdminKey",
        "adminAccessToken",
      ] as const) {
        await expectKnownError(
          await probe({ projectId: DEV.id, [key]: "anything" }),
          "PROJECT_KEY_WITHOUT_ACCESS_TYPE",
          400,
        );
      }
    });

    it("reports PROJECT_KEY_WITHOUT_ACCESS_TYPE before a garbage access token or an unknown project", async () => {
      const response = await probe({ projectId: UNKNOWN_PROJECT, secretServerKey: "wrong", accessToken: "garbage" });
      await expectKnownError(response, "PROJECT_KEY_WITHOUT_ACCESS_TYPE", 400);
    });

    it("treats a request without access type and keys as unauthenticated, ignoring its token and project", async () => {
      const response = await probe({ projectId: UNKNOWN_PROJECT, accessToken: "garbage" });
      expect(response.status).toBe(200);
      expect(response.headers.get("content-type")).toBe("text/plain; charset=utf-8");
      expect(await response.text()).toBe(`${WELCOME}Authentication: None`);
    });

    it("counts empty key headers as absent: no PROJECT_KEY_WITHOUT_ACCESS_TYPE for them", async () => {
      const response = await probe({
        projectId: DEV.id,
        publishableClientKey: "",
        secretServerKey: "",
        adminAccessToken: "",
      });
      expect(await response.text()).toBe(`${WELCOME}Authentication: None`);
    });

    it("answers the root without any headers with Authentication: None", async () => {
      expect(await (await probe({})).text()).toContain("Authentication: None");
    });
  });

  describe("step 3: INVALID_ACCESS_TYPE", () => {
    it("rejects an unknown access type with INVALID_ACCESS_TYPE and no details", async () => {
      const body = await expectKnownError(
        await probe({ accessType: "superuser", projectId: DEV.id }),
        "INVALID_ACCESS_TYPE",
        400,
      );
      expect(body.details).toBeUndefined();
      expect(body.error).toContain("'superuser'");
    });

    it("reports INVALID_ACCESS_TYPE before a missing project id", async () => {
      await expectKnownError(await probe({ accessType: "Client" }), "INVALID_ACCESS_TYPE", 400);
    });
  });

  describe("step 4: ACCESS_TYPE_WITHOUT_PROJECT_ID", () => {
    it("rejects an access type without project id, naming the request type in details", async () => {
      const body = await expectKnownError(await probe({ accessType: "server" }), "ACCESS_TYPE_WITHOUT_PROJECT_ID", 400);
      expect(body.details).toEqual({ request_type: "server" });
    });

    it("reports ACCESS_TYPE_WITHOUT_PROJECT_ID before a garbage access token", async () => {
      const body = await expectKnownError(
        await probe({ accessType: "client", accessToken: "garbage" }),
        "ACCESS_TYPE_WITHOUT_PROJECT_ID",
        400,
      );
      expect(body.details).toEqual({ request_type: "client" });
    });
  });

  describe("step 5: the user's access token", () => {
    it("accepts a valid token and names the user", async () => {
      const user = await signUp(provider);
      const response = await probe(client({ accessToken: user.access_token }));
      expect(await response.text()).toBe(
        `${WELCOME}Authentication: Client\n  Project: ${DEV.id}\n  User: ${user.email}`,
      );
    });

    it("rejects a garbage token with UNPARSABLE_ACCESS_TOKEN", async () => {
      await expectKnownError(await probe(client({ accessToken: "not.a.jwt" })), "UNPARSABLE_ACCESS_TOKEN", 401);
    });

    it("rejects a token whose signature was tampered with", async () => {
      const { access_token } = await signUp(provider);
      const [header, payload, signature] = access_token.split(".") as [string, string, string];
      const flipped = (signature[0] === "A" ? "B" : "A") + signature.slice(1);
      await expectKnownError(
        await probe(client({ accessToken: `${header}.${payload}.${flipped}` })),
        "UNPARSABLE_ACCESS_TOKEN",
        401,
      );
    });

    it("rejects a token whose payload was changed after signing", async () => {
      const { access_token } = await signUp(provider);
      const [header, payload, signature] = access_token.split(".") as [string, string, string];
      const forged = b64url({
        ...JSON.parse(Buffer.from(payload, "base64url").toString()),
        email: "mallory@example.com",
      });
      await expectKnownError(
        await probe(client({ accessToken: `${header}.${forged}.${signature}` })),
        "UNPARSABLE_ACCESS_TOKEN",
        401,
      );
    });

    it("rejects an unsigned `alg: none` token with the real kid", async () => {
      const { access_token } = await signUp(provider);
      const { kid } = decodeProtectedHeader(access_token);
      const unsigned = `${b64url({ alg: "none", kid })}.${access_token.split(".")[1]}.`;
      await expectKnownError(await probe(client({ accessToken: unsigned })), "UNPARSABLE_ACCESS_TOKEN", 401);
    });

    it("rejects a token with valid claims signed by another key under the provider's kid", async () => {
      const { access_token } = await signUp(provider);
      const { kid } = decodeProtectedHeader(access_token);
      const { privateKey } = await generateKeyPair("ES256");
      const forged = await new SignJWT(decodeJwt(access_token) as JWTPayload)
        .setProtectedHeader({ alg: "ES256", kid })
        .sign(privateKey);
      await expectKnownError(await probe(client({ accessToken: forged })), "UNPARSABLE_ACCESS_TOKEN", 401);
    });

    it("reports UNPARSABLE_ACCESS_TOKEN before an unknown project or a wrong key", async () => {
      await expectKnownError(
        await probe(client({ projectId: UNKNOWN_PROJECT, accessToken: "garbage" })),
        "UNPARSABLE_ACCESS_TOKEN",
        401,
      );
      await expectKnownError(
        await probe(server({ secretServerKey: "wrong", accessToken: "garbage" })),
        "UNPARSABLE_ACCESS_TOKEN",
        401,
      );
    });

    it("rejects a token after its 600 s lifetime with ACCESS_TOKEN_EXPIRED", async () => {
      const { access_token } = await signUp(provider);
      provider.clock.advance(599_000);
      expect((await probe(client({ accessToken: access_token }))).status).toBe(200);
      provider.clock.advance(2_000);
      const body = await expectKnownError(
        await probe(client({ accessToken: access_token })),
        "ACCESS_TOKEN_EXPIRED",
        401,
      );
      expect(body.details?.expired_at_millis).toBe((decodeJwt(access_token).exp ?? 0) * 1000);
    });

    it("reports ACCESS_TOKEN_EXPIRED before a wrong publishable key", async () => {
      const { access_token } = await signUp(provider);
      expireAccessTokens(provider);
      await expectKnownError(
        await probe(client({ publishableClientKey: "wrong", accessToken: access_token })),
        "ACCESS_TOKEN_EXPIRED",
        401,
      );
    });

    it("rejects a token of the internal project sent to the dev project with INVALID_PROJECT_FOR_ACCESS_TOKEN", async () => {
      const internalUser = await signUp(provider, { project: INTERNAL });
      const body = await expectKnownError(
        await probe(client({ accessToken: internalUser.access_token })),
        "INVALID_PROJECT_FOR_ACCESS_TOKEN",
        401,
      );
      expect(body.details).toEqual({ expected_project_id: DEV.id, actual_project_id: INTERNAL.id });
    });

    it("reports INVALID_PROJECT_FOR_ACCESS_TOKEN before an unknown project and a wrong key", async () => {
      const { access_token } = await signUp(provider);
      const response = await probe(
        client({ projectId: UNKNOWN_PROJECT, publishableClientKey: "wrong", accessToken: access_token }),
      );
      const body = await expectKnownError(response, "INVALID_PROJECT_FOR_ACCESS_TOKEN", 401);
      expect(body.details).toEqual({ expected_project_id: UNKNOWN_PROJECT, actual_project_id: DEV.id });
    });

    it("rejects an anonymous user's token without allow-anonymous-user with ANONYMOUS_AUTHENTICATION_NOT_ALLOWED", async () => {
      const anon = await anonymousSignUp(provider);
      await expectKnownError(
        await probe(client({ accessToken: anon.access_token })),
        "ANONYMOUS_AUTHENTICATION_NOT_ALLOWED",
        401,
      );
      const notTrue = client({ accessToken: anon.access_token, allowAnonymousUser: "false" });
      await expectKnownError(await probe(notTrue), "ANONYMOUS_AUTHENTICATION_NOT_ALLOWED", 401);
    });

    it("reports ANONYMOUS_AUTHENTICATION_NOT_ALLOWED before a wrong publishable key", async () => {
      const anon = await anonymousSignUp(provider);
      const response = await probe(client({ publishableClientKey: "wrong", accessToken: anon.access_token }));
      await expectKnownError(response, "ANONYMOUS_AUTHENTICATION_NOT_ALLOWED", 401);
    });

    it("accepts an anonymous user's token with allow-anonymous-user: true", async () => {
      const anon = await anonymousSignUp(provider);
      const response = await probe(client({ accessToken: anon.access_token, allowAnonymousUser: "true" }));
      expect(response.status).toBe(200);
      expect(await response.text()).toContain(`User: ${anon.user_id}`);
    });
  });

  describe("step 5: restricted users", () => {
    async function restrictedUser() {
      const user = await signUp(provider);
      const patch = await api(provider, `/users/${user.user_id}`, {
        method: "PATCH",
        headers: server(),
        json: { restricted_by_admin: true },
      });
      expect(patch.status).toBe(200);
      const signIn = await api(provider, "/auth/password/sign-in", {
        headers: client(),
        json: { email: user.email, password: user.password },
      });
      return ((await signIn.json()) as { access_token: string }).access_token;
    }

    it("rejects a restricted user's token with RESTRICTED_USER_NOT_ALLOWED and the reason", async () => {
      const token = await restrictedUser();
      expect(decodeJwt(token).aud).toBe(`${DEV.id}:restricted`);
      const body = await expectKnownError(
        await probe(client({ accessToken: token })),
        "RESTRICTED_USER_NOT_ALLOWED",
        403,
      );
      expect(body.details).toEqual({ restricted_reason: { type: "restricted_by_administrator" } });
    });

    it("accepts it with allow-restricted-user, or allow-anonymous-user which implies it", async () => {
      const token = await restrictedUser();
      expect((await probe(client({ accessToken: token, allowRestrictedUser: "true" }))).status).toBe(200);
      expect((await probe(client({ accessToken: token, allowAnonymousUser: "true" }))).status).toBe(200);
    });
  });

  describe("step 6: CURRENT_PROJECT_NOT_FOUND", () => {
    it("rejects an unknown project with CURRENT_PROJECT_NOT_FOUND naming it", async () => {
      const body = await expectKnownError(
        await probe(client({ projectId: UNKNOWN_PROJECT })),
        "CURRENT_PROJECT_NOT_FOUND",
        400,
      );
      expect(body.details).toEqual({ project_id: UNKNOWN_PROJECT });
    });

    it("reports CURRENT_PROJECT_NOT_FOUND before a wrong key and an unknown branch", async () => {
      const response = await probe(server({ projectId: UNKNOWN_PROJECT, secretServerKey: "wrong", branchId: "nope" }));
      await expectKnownError(response, "CURRENT_PROJECT_NOT_FOUND", 400);
    });
  });
});

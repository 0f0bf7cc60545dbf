import { describe, expect, it } from "vitest";
import { INTERNAL_PROJECT_ID } from "@authsim/sdk/contract";
import { asClient, opSeam, type OpSeam } from "../../../test-support/op-seam.ts";
import { s256Challenge } from "../oauth/oauth-token.ts";
import { integrationClients } from "./integration-clients.ts";
import {
  confirmInteraction,
  exchangeIntegrationCode,
  idpRequest,
  type IdpAnswer,
  type IdpRequest,
} from "./integration-idp.ts";
import { confirmTransfer, provisionProject, startTransfer } from "./integration-projects.ts";

/** The integrations' identity provider and transfer rules at the ops' seam: order of checks, single use, expiry. */

const CLIENT = integrationClients[0]!;
const REDIRECT_URI = CLIENT.redirectUris[0]!;
const BASIC = `Basic ${btoa(`${CLIENT.clientId}:${CLIENT.clientSecret}`)}`;
const VERIFIER = "seam-verifier-0123456789-0123456789-0123456789";

const request = (part: Partial<IdpRequest> & Pick<IdpRequest, "method" | "route">): IdpRequest => ({
  query: {},
  form: {},
  cookies: {},
  authorization: undefined,
  ...part,
});

function redirectOf(answer: IdpAnswer) {
  if (answer.kind !== "redirect") throw new Error(`expected a redirect, got ${JSON.stringify(answer)}`);
  return answer;
}

/** Authorize → interaction (consent URL) → the dashboard's code: the steps before the browser comes back. */
async function consented(seam: OpSeam) {
  const target = await seam.ok((ctx) => provisionProject(ctx, "neon", CLIENT, { display_name: "Target" }));
  const query = {
    client_id: CLIENT.clientId,
    redirect_uri: REDIRECT_URI,
    response_type: "code",
    scope: "openid",
    code_challenge: await s256Challenge(VERIFIER),
    code_challenge_method: "S256",
    state: "opaque",
  };
  const auth = redirectOf(
    await seam.ok((ctx) => idpRequest(ctx, "neon", request({ method: "GET", route: "auth", query }))),
  );
  const cookies = Object.fromEntries(auth.cookies.map((c) => [c.name, c.value]));
  const uid = auth.location.split("/").at(-1)!;
  const { authorization_code } = await seam.ok((ctx) =>
    confirmInteraction(ctx, "neon", INTERNAL_PROJECT_ID, { interaction_uid: uid, project_id: target.project_id }),
  );
  return { target, uid, cookies, code: authorization_code };
}

describe("the interaction's end", () => {
  it("spends the dashboard's code even when the session cookie is missing, so it cannot be tried again", async () => {
    const seam = opSeam();
    const { uid, cookies, code } = await consented(seam);
    const done = (withCookies: Record<string, string>) =>
      seam.run((ctx) =>
        idpRequest(
          ctx,
          "neon",
          request({ method: "POST", route: `interaction/${uid}/done`, query: { code }, cookies: withCookies }),
        ),
      );
    const noCookie = await done({});
    expect(noCookie).toMatchObject({ ok: true, value: { kind: "json", status: 400 } });
    const again = await done(cookies);
    expect(again.ok).toBe(false);
    if (!again.ok) expect(again.error.message).toBe("Invalid authorization code. Please try again.");
  });

  it("refuses a code made for another interaction, and the code is spent", async () => {
    const seam = opSeam();
    const first = await consented(seam);
    const second = await consented(seam);
    const finish = (uid: string, cookies: Record<string, string>) =>
      seam.run((ctx) =>
        idpRequest(
          ctx,
          "neon",
          request({ method: "POST", route: `interaction/${uid}/done`, query: { code: first.code }, cookies }),
        ),
      );
    const mismatch = await finish(second.uid, second.cookies);
    expect(mismatch.ok).toBe(false);
    if (!mismatch.ok) expect(mismatch.error.message).toMatch(/^Different interaction UID/);
    const own = await finish(first.uid, first.cookies);
    expect(own.ok).toBe(false);
    if (!own.ok) expect(own.error.message).toBe("Invalid authorization code. Please try again.");
  });
});

describe("the code exchange", () => {
  async function codeFor(seam: OpSeam) {
    const { uid, cookies, code, target } = await consented(seam);
    await seam.ok((ctx) =>
      idpRequest(ctx, "neon", request({ method: "POST", route: `interaction/${uid}/done`, query: { code }, cookies })),
    );
    const back = redirectOf(
      await seam.ok((ctx) => idpRequest(ctx, "neon", request({ method: "GET", route: `auth/${uid}`, cookies }))),
    );
    return { code: new URL(back.location).searchParams.get("code")!, target };
  }
  const form = (code: string, verifier = VERIFIER) => ({
    grant_type: "authorization_code",
    code,
    code_verifier: verifier,
    redirect_uri: REDIRECT_URI,
  });

  it("gives the project's admin key once, for the right verifier", async () => {
    const seam = opSeam();
    const { code, target } = await codeFor(seam);
    const wrongVerifier = await seam.ok((ctx) =>
      exchangeIntegrationCode(ctx, "neon", form(code, `${VERIFIER}x`), BASIC),
    );
    expect(wrongVerifier).toMatchObject({ ok: false, status: 400 });
    const exchanged = await seam.ok((ctx) => exchangeIntegrationCode(ctx, "neon", form(code), BASIC));
    expect(exchanged).toMatchObject({ ok: true, result: { token_type: "api_key", project_id: target.project_id } });
    const reused = await seam.ok((ctx) => exchangeIntegrationCode(ctx, "neon", form(code), BASIC));
    expect(reused).toMatchObject({ ok: false, status: 400 });
  });

  it("does not take a code past its minute, nor from the other family's provider", async () => {
    const seam = opSeam();
    const { code } = await codeFor(seam);
    const custom = await seam.ok((ctx) => exchangeIntegrationCode(ctx, "custom", form(code), BASIC));
    expect(custom).toMatchObject({ ok: false, status: 400 });
    seam.clock.advance(61_000);
    const late = await seam.ok((ctx) => exchangeIntegrationCode(ctx, "neon", form(code), BASIC));
    expect(late).toMatchObject({ ok: false, status: 400 });
  });
});

describe("transfer", () => {
  it("checks the code before the caller's project, and needs a signed-in user only to confirm (asked after the code is spent, as upstream)", async () => {
    const seam = opSeam();
    const provisioned = await seam.ok((ctx) => provisionProject(ctx, "custom", CLIENT, { display_name: "P" }));
    const { confirmation_url } = await seam.ok((ctx) => startTransfer(ctx, "custom", CLIENT, provisioned.project_id));
    const code = new URL(confirmation_url).searchParams.get("code")!;
    // On another project the code (a code of `internal`) is simply not there.
    await seam.refuses(
      asClient(),
      (ctx) => confirmTransfer(ctx, "custom", code, { checkOnly: true }),
      "VERIFICATION_CODE_NOT_FOUND",
    );
    const onInternal = asClient(null, INTERNAL_PROJECT_ID);
    expect(await seam.ok(onInternal, (ctx) => confirmTransfer(ctx, "custom", code, { checkOnly: true }))).toEqual({
      is_code_valid: true,
    });
    // The real handler asks for the user after it has spent the code: the code is used up.
    await seam.refusesSpendingCode(
      onInternal,
      (ctx) => confirmTransfer(ctx, "custom", code, { checkOnly: false }),
      "USER_AUTHENTICATION_REQUIRED",
    );
    await seam.refuses(
      onInternal,
      (ctx) => confirmTransfer(ctx, "custom", code, { checkOnly: true }),
      "VERIFICATION_CODE_ALREADY_USED",
    );
    // A new transfer's code confirms for a signed-in user, then is used.
    const again = await seam.ok((ctx) => startTransfer(ctx, "custom", CLIENT, provisioned.project_id));
    const second = new URL(again.confirmation_url).searchParams.get("code")!;
    const user = await seam.addUser({ primary_email: "owner@example.com" }, INTERNAL_PROJECT_ID);
    const asUser = asClient(user, INTERNAL_PROJECT_ID);
    expect(await seam.ok(asUser, (ctx) => confirmTransfer(ctx, "custom", second, { checkOnly: false }))).toEqual({
      project_id: provisioned.project_id,
    });
    const owner = seam.project(provisioned.project_id).ownerTeamId!;
    expect(seam.tables.teams.get(owner)?.displayName).toBe("owner@example.com's Team");
    await seam.refuses(
      asUser,
      (ctx) => confirmTransfer(ctx, "custom", second, { checkOnly: true }),
      "VERIFICATION_CODE_ALREADY_USED",
    );
  });

  it("expires a link after an hour", async () => {
    const seam = opSeam();
    const provisioned = await seam.ok((ctx) => provisionProject(ctx, "neon", CLIENT, { display_name: "P" }));
    const { confirmation_url } = await seam.ok((ctx) => startTransfer(ctx, "neon", CLIENT, provisioned.project_id));
    seam.clock.advance(60 * 60 * 1000 + 1);
    await seam.refuses(
      asClient(null, INTERNAL_PROJECT_ID),
      (ctx) => confirmTransfer(ctx, "neon", new URL(confirmation_url).searchParams.get("code")!, { checkOnly: true }),
      "VERIFICATION_CODE_EXPIRED",
    );
  });
});

import { describe, expect, it } from "vitest";
import { devProjectSeed } from "@authsim/fixtures";
import { PUBLIC_CLIENT_SENTINEL, constants } from "@authsim/sdk/contract";
import { devSeedWith, opSeam } from "../../../test-support/op-seam.ts";
import { tokenEndpointClient } from "./oauth-token.ts";

/** POST /auth/oauth/token's client authentication (protocol.md §4.4), at the op's seam. */

const DEV = devProjectSeed;
const PUBLISHABLE = DEV.keys.publishable_client_key;

describe("tokenEndpointClient", () => {
  it("is the project named by client_id (optionally #main), with a publishable key, the public sentinel or none", async () => {
    const seam = opSeam();
    for (const body of [
      { client_id: DEV.id, client_secret: PUBLISHABLE },
      { client_id: `${DEV.id}#main`, client_secret: PUBLISHABLE, scope: constants.oauthScope },
      { client_id: DEV.id, client_secret: PUBLIC_CLIENT_SENTINEL },
      { client_id: DEV.id },
    ]) {
      expect((await seam.ok((ctx) => tokenEndpointClient(ctx, body))).id, JSON.stringify(body)).toBe(DEV.id);
    }
  });

  it("refuses an unknown project, another branch or a wrong key with INVALID_OAUTH_CLIENT_ID_OR_SECRET naming the client", async () => {
    const seam = opSeam();
    for (const clientId of ["", "no-such-project", `${DEV.id}#dev`]) {
      expect(
        (
          await seam.refuses(
            (ctx) => tokenEndpointClient(ctx, { client_id: clientId, client_secret: PUBLISHABLE }),
            "INVALID_OAUTH_CLIENT_ID_OR_SECRET",
          )
        ).details,
      ).toEqual({ client_id: clientId });
    }
    expect(
      (
        await seam.refuses(
          (ctx) => tokenEndpointClient(ctx, { client_id: DEV.id, client_secret: "pck_wrong" }),
          "INVALID_OAUTH_CLIENT_ID_OR_SECRET",
        )
      ).details,
    ).toEqual({ client_id: DEV.id });
  });

  it("refuses a missing key where the project requires one (PUBLISHABLE_CLIENT_KEY_REQUIRED_FOR_PROJECT)", async () => {
    const seam = opSeam({ seed: devSeedWith({ require_publishable_client_key: true }) });
    expect(
      (
        await seam.refuses(
          (ctx) => tokenEndpointClient(ctx, { client_id: DEV.id, client_secret: PUBLIC_CLIENT_SENTINEL }),
          "PUBLISHABLE_CLIENT_KEY_REQUIRED_FOR_PROJECT",
        )
      ).details,
    ).toEqual({ project_id: DEV.id });
    expect(
      (await seam.ok((ctx) => tokenEndpointClient(ctx, { client_id: DEV.id, client_secret: PUBLISHABLE }))).id,
    ).toBe(DEV.id);
  });

  it("checks the client before the scope, and refuses any scope but the service's (INVALID_SCOPE)", async () => {
    const seam = opSeam();
    await seam.refuses(
      (ctx) => tokenEndpointClient(ctx, { client_id: DEV.id, client_secret: PUBLISHABLE, scope: "openid" }),
      "INVALID_SCOPE",
    );
    await seam.refuses(
      (ctx) => tokenEndpointClient(ctx, { client_id: "no-such-project", scope: "openid" }),
      "INVALID_OAUTH_CLIENT_ID_OR_SECRET",
    );
  });
});

import { describe, expect, it } from "vitest";
import { api, client, expectJson, newProvider, ORIGIN, server, signUp } from "../../test-support/api.ts";
import { serverCreateTeam } from "../../test-support/teams.ts";
import { updatedProject } from "../../test-support/admin.ts";

/**
 * Uploaded images (domain/ops/storage/uploaded-images.ts, emulator/storage/routes.ts): a base64 image becomes a URL on
 * the storage endpoint, `<endpoint>/stack-storage/<folder>/<uuid>.<format>`, that answers the same bytes; in process
 * the endpoint is the API's own origin at /__storage, served by provider.fetch.
 */

// 1×1 images: a GIF and a PNG, as data URLs.
const GIF = "R0lGODlhAQABAAAAACH5BAEKAAEALAAAAAABAAEAAAICTAEAOw==";
const PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAAD0lEQVR4AQEEAPv/ALHBwQRaAjRgT7lCAAAAAElFTkSuQmCC";
const UUID = "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}";

async function bytesAt(provider: ReturnType<typeof newProvider>, url: string) {
  const response = await provider.fetch(url);
  return {
    status: response.status,
    type: response.headers.get("content-type"),
    nosniff: response.headers.get("x-content-type-options"),
    base64: Buffer.from(await response.arrayBuffer()).toString("base64"),
  };
}

describe("uploaded images", () => {
  it("a user's base64 image is stored and answered at a URL on the API's origin", async () => {
    const provider = newProvider();
    const user = await signUp(provider);
    const body = (await expectJson(
      await api(provider, "/users/me", {
        method: "PATCH",
        headers: client({ accessToken: user.access_token }),
        json: { profile_image_url: `data:image/gif;base64,${GIF}` },
      }),
    )) as { profile_image_url: string };
    expect(body.profile_image_url).toMatch(
      new RegExp(`^${ORIGIN}/__storage/stack-storage/user-profile-images/${UUID}\\.gif$`),
    );
    expect(await bytesAt(provider, body.profile_image_url)).toEqual({
      status: 200,
      type: "image/gif",
      nosniff: "nosniff",
      base64: GIF,
    });
  });

  it("names the configured storage endpoint, with a folder per kind of image", async () => {
    const provider = newProvider({ storageUrl: "http://localhost:8121" });
    const team = await serverCreateTeam(provider, {
      display_name: "T",
      profile_image_url: `data:image/png;base64,${PNG}`,
    });
    expect(team.profile_image_url).toMatch(
      new RegExp(`^http://localhost:8121/stack-storage/team-profile-images/${UUID}\\.png$`),
    );
    const project = await updatedProject(provider, { logo_url: `data:image/png;base64,${PNG}` });
    expect(project.logo_url).toMatch(new RegExp(`^http://localhost:8121/stack-storage/project-logos/${UUID}\\.png$`));
    // The storage port answers what the API's origin holds under /__storage (the dev server's storagePortFetch).
    const path = new URL(project.logo_url!).pathname;
    expect((await bytesAt(provider, `${ORIGIN}/__storage${path}`)).base64).toBe(PNG);
  });

  it("keeps a web URL as given and refuses what is not an image, storing nothing", async () => {
    const provider = newProvider();
    const user = await signUp(provider);
    const url = "https://example.com/me.png";
    const kept = await api(provider, `/users/${user.user_id}`, {
      method: "PATCH",
      headers: server(),
      json: { profile_image_url: url },
    });
    expect(((await expectJson(kept)) as { profile_image_url: string }).profile_image_url).toBe(url);
    const notImage = await api(provider, `/users/${user.user_id}`, {
      method: "PATCH",
      headers: server(),
      json: { profile_image_url: `data:image/png;base64,${btoa("not an image at all")}` },
    });
    expect({ status: notImage.status, text: await notImage.text() }).toEqual({
      status: 400,
      text: "Invalid image format or corrupted image data",
    });
    const tooLarge = await api(provider, `/users/${user.user_id}`, {
      method: "PATCH",
      headers: server(),
      json: { profile_image_url: `data:image/png;base64,${"A".repeat(1_000_004)}` },
    });
    expect({ status: tooLarge.status, text: await tooLarge.text() }).toEqual({
      status: 400,
      text: "Image size (1000004 bytes) exceeds maximum allowed size (1000000 bytes)",
    });
    expect(provider.store.read.storedObjects.size).toBe(0);
  });

  it("answers 404 for a key it does not hold and for another bucket", async () => {
    const provider = newProvider();
    expect((await provider.fetch(`${ORIGIN}/__storage/stack-storage/user-profile-images/none.png`)).status).toBe(404);
    expect((await provider.fetch(`${ORIGIN}/__storage/stack-storage-private/x.png`)).status).toBe(404);
  });
});

import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  api,
  client,
  expectJson,
  expectKnownError,
  INTERNAL,
  newProvider,
  signUp,
  type TestProvider,
} from "../../../test-support/api.ts";

/** The feature-request board (/internal/feature-requests): kept as data, for users of the internal project. */

let provider: TestProvider;
beforeEach(() => {
  provider = newProvider();
});
afterEach(() => {
  expect(provider.unexpected).toEqual([]);
});

const BOARD = "/internal/feature-requests";
type Listing = {
  posts: {
    id: string;
    title: string;
    content: string | null;
    upvotes: number;
    date: string;
    postStatus: unknown;
    userHasUpvoted: boolean;
  }[];
};

async function dashboardUser() {
  const user = await signUp(provider, { project: INTERNAL });
  return client({ accessToken: user.access_token }, INTERNAL);
}

describe("the feature-request board", () => {
  it("posts, lists by upvotes with the caller's own votes, and toggles an upvote", async () => {
    const alice = await dashboardUser();
    const bob = await dashboardUser();
    const first = await expectJson<{ success: boolean; id: string }>(
      await api(provider, BOARD, { headers: alice, json: { title: "Dark mode" } }),
    );
    expect(first).toEqual({ success: true, id: expect.stringMatching(/^[0-9a-f]{24}$/) });
    const second = await expectJson<{ id: string }>(
      await api(provider, BOARD, { headers: bob, json: { title: "SAML", content: "please" } }),
    );

    expect(await expectJson(await api(provider, `${BOARD}/${second.id}/upvote`, { headers: alice, json: {} }))).toEqual(
      { success: true, upvoted: true },
    );
    const listing = await expectJson<Listing>(await api(provider, BOARD, { headers: alice }));
    expect(listing.posts.map((p) => [p.title, p.upvotes, p.userHasUpvoted])).toEqual([
      ["SAML", 1, true],
      ["Dark mode", 0, false],
    ]);
    expect(listing.posts[1]).toMatchObject({ content: "", postStatus: null });
    expect(new Date(listing.posts[0]!.date).toISOString()).toBe(listing.posts[0]!.date);
    const bobsView = await expectJson<Listing>(await api(provider, BOARD, { headers: bob }));
    expect(bobsView.posts[0]!.userHasUpvoted).toBe(false);

    // A second upvote takes the vote back.
    expect(
      await expectJson(await api(provider, `${BOARD}/${second.id}/upvote`, { method: "POST", headers: alice })),
    ).toEqual({ success: true, upvoted: false });
    expect(
      (await expectJson<Listing>(await api(provider, BOARD, { headers: alice }))).posts.map((p) => p.upvotes),
    ).toEqual([0, 0]);
  });

  it("leaves merged and completed posts out of a listing", async () => {
    const alice = await dashboardUser();
    const { id } = await expectJson<{ id: string }>(
      await api(provider, BOARD, { headers: alice, json: { title: "Done already" } }),
    );
    await provider.store.transact((tables) =>
      tables.featureRequests.set(id, {
        ...tables.featureRequests.get(id)!,
        status: { name: "Done", color: "green", type: "completed" },
      }),
    );
    expect((await expectJson<Listing>(await api(provider, BOARD, { headers: alice }))).posts).toEqual([]);
  });

  it("refuses an unknown post's upvote with a plain 404, and changes nothing", async () => {
    const response = await api(provider, `${BOARD}/${"0".repeat(24)}/upvote`, {
      headers: await dashboardUser(),
      json: {},
    });
    expect(response.status).toBe(404);
    expect(response.headers.get("x-stack-known-error")).toBeNull();
  });

  it("takes its caller rules from the schema: a user, of the internal project", async () => {
    for (const headers of [client(), client({}, INTERNAL)]) {
      await expectKnownError(await api(provider, BOARD, { headers }), "SCHEMA_ERROR", 400);
      await expectKnownError(await api(provider, BOARD, { headers, json: { title: "x" } }), "SCHEMA_ERROR", 400);
    }
    const body = await expectKnownError(await api(provider, BOARD, { headers: client() }), "SCHEMA_ERROR", 400);
    expect(body.error).toContain(
      "auth.user must be defined\n  - auth.project.id must be one of the following values: internal",
    );
    await expectKnownError(await api(provider, BOARD), "ACCESS_TYPE_REQUIRED", 400);
  });

  it("refuses malformed bodies with SCHEMA_ERROR and keeps nothing", async () => {
    const alice = await dashboardUser();
    for (const json of [
      {},
      { title: 1 },
      { title: "x", tags: [1] },
      { title: "x", extra: true },
      { title: "x", customInputValues: [] },
    ]) {
      await expectKnownError(await api(provider, BOARD, { headers: alice, json }), "SCHEMA_ERROR", 400);
    }
    await expectKnownError(
      await api(provider, `${BOARD}/abc/upvote`, { headers: alice, json: { vote: true } }),
      "SCHEMA_ERROR",
      400,
    );
    expect(provider.store.read.featureRequests.size).toBe(0);
  });
});

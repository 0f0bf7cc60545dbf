import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  api,
  client,
  expectJson,
  expectKnownError,
  newProvider,
  server,
  signUp,
  type TestProvider,
} from "../../../test-support/api.ts";
import { useSmtp } from "../../../test-support/admin.ts";

/** GET /emails/unsubscribe-link: the link a Marketing email carries turns the category off for its recipient. */

let provider: TestProvider;
beforeEach(() => {
  provider = newProvider();
});
afterEach(() => expect(provider.unexpected).toEqual([]));

const MARKETING = "4f6f8873-3d04-46bd-8bef-18338b1a1b4c";
const send = (json: unknown) => api(provider, "/emails/send-email", { headers: server(), json });
const linkOf = (html: string) => /href="([^"]*\/emails\/unsubscribe-link\?code=[a-z0-9]+)"/.exec(html)?.[1];

describe("GET /emails/unsubscribe-link", () => {
  it("is in Marketing emails only, and opening it turns Marketing off once", async () => {
    await useSmtp(provider);
    const user = await signUp(provider);
    await expectJson(
      await send({
        user_ids: [user.user_id],
        html: "<p>Receipt</p>",
        subject: "Receipt",
        notification_category_name: "Transactional",
      }),
    );
    expect(linkOf(provider.outbox.latest({ to: user.email, kind: "custom" })!.html)).toBeUndefined();
    await expectJson(
      await send({
        user_ids: [user.user_id],
        html: "<p>Sale</p>",
        subject: "Sale",
        notification_category_name: "Marketing",
      }),
    );
    const link = linkOf(provider.outbox.latest({ to: user.email, kind: "custom" })!.html)!;
    const path = new URL(link).pathname + new URL(link).search;
    const opened = await provider.app.request(path);
    expect([opened.status, await opened.text()]).toEqual([
      200,
      "<p>Successfully unsubscribed from notification group</p>",
    ]);
    expect(await (await provider.app.request(path)).text()).toBe(
      "<p>You have already unsubscribed from this notification group</p>",
    );
    const prefs = await expectJson<{ items: { notification_category_id: string; enabled: boolean }[] }>(
      await api(provider, "/emails/notification-preference/me", {
        headers: client({ accessToken: user.access_token }),
      }),
    );
    expect(prefs.items.find((p) => p.notification_category_id === MARKETING)!.enabled).toBe(false);
  });

  it("answers 400 for a malformed code and VERIFICATION_CODE_NOT_FOUND for an unknown one", async () => {
    const bad = await provider.app.request("/api/v1/emails/unsubscribe-link?code=short");
    expect([bad.status, await bad.text()]).toEqual([400, "Invalid code"]);
    await expectKnownError(
      await provider.app.request(`/api/v1/emails/unsubscribe-link?code=${"a".repeat(45)}`),
      "VERIFICATION_CODE_NOT_FOUND",
      404,
    );
  });
});

import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { EVIL_CALLBACKS } from "../fuzz/arsenal.ts";
import { stateChanges } from "../fuzz/invariants.ts";
import { buildWorld, keyHeaders, TRUSTED_CALLBACK, type HeaderFields, type World } from "../fuzz/world.ts";
import { api, knownErrorOf, type Answer } from "./support.ts";

/**
 * URLs the provider puts in emails or redirects to must be on a trusted domain of the project (spec §5; protocol.md
 * §7.2): the dev project trusts localhost only. Every endpoint that takes one refuses the others with
 * REDIRECT_URL_NOT_WHITELISTED (or SCHEMA_ERROR when it is no absolute URL at all), sends no email and changes nothing.
 */
let world: World;

beforeAll(async () => {
  world = await buildWorld({ seed: "authsim-security-redirects" });
});
beforeEach(() => {
  world.provider.restore(world.baseline);
});

interface Taker {
  name: string;
  call(url: string): Promise<Answer>;
}

const asA = (): HeaderFields => keyHeaders("dev", "client", { accessToken: world.users.a.accessToken });
const channelOfA = () =>
  (world.baseline.store.tables.contactChannels ?? [])
    .map(([, row]) => row as { id: string; userId: string })
    .find((row) => row.userId === world.users.a.userId)?.id ?? "";

const takers: Taker[] = [
  {
    name: "password sign-up (verification_callback_url)",
    call: (url) =>
      api(world, "POST", "/auth/password/sign-up", keyHeaders("dev", "client"), {
        body: { email: "redirect-new@example.com", password: "fuzz-password-123", verification_callback_url: url },
      }),
  },
  {
    name: "password reset code",
    call: (url) =>
      api(world, "POST", "/auth/password/send-reset-code", keyHeaders("dev", "client"), {
        body: { email: world.users.a.email, callback_url: url },
      }),
  },
  {
    name: "OTP sign-in code",
    call: (url) =>
      api(world, "POST", "/auth/otp/send-sign-in-code", keyHeaders("dev", "client"), {
        body: { email: "redirect-otp@example.com", callback_url: url },
      }),
  },
  {
    name: "primary email verification",
    call: (url) =>
      api(world, "POST", "/contact-channels/send-verification-code", asA(), {
        body: { email: world.users.a.email, callback_url: url },
      }),
  },
  {
    name: "contact channel verification",
    call: (url) =>
      api(world, "POST", `/contact-channels/me/${channelOfA()}/send-verification-code`, asA(), {
        body: { callback_url: url },
      }),
  },
  {
    name: "team invitation",
    call: (url) =>
      api(world, "POST", "/team-invitations/send-code", asA(), {
        body: { email: "redirect-invitee@example.com", team_id: world.teamId, callback_url: url },
      }),
  },
  {
    name: "purchase URL (return_url)",
    call: (url) =>
      api(world, "POST", "/payments/purchases/create-purchase-url", asA(), {
        body: { customer_type: "user", customer_id: world.users.a.userId, offer_id: "credit-pack", return_url: url },
      }),
  },
];

describe("URLs outside the trusted domains", () => {
  for (const taker of takers) {
    it(`${taker.name}: a trusted URL works, every other is refused and leaves no trace`, async () => {
      const control = await taker.call(TRUSTED_CALLBACK);
      expect(control.status, control.text.slice(0, 300)).toBeLessThan(300);
      for (const url of EVIL_CALLBACKS) {
        world.provider.restore(world.baseline);
        const answer = await taker.call(url);
        const code = knownErrorOf(answer);
        expect({ url, status: answer.status, code }).toEqual({
          url,
          status: 400,
          code: expect.stringMatching(/^(REDIRECT_URL_NOT_WHITELISTED|SCHEMA_ERROR)$/),
        });
        expect(stateChanges(world.baseline.store, world.provider.snapshot().store)).toEqual([]);
      }
    });
  }

  it("no email of the refused requests reached the outbox", async () => {
    const before = world.provider.outbox.list().length;
    for (const taker of takers) for (const url of EVIL_CALLBACKS) await taker.call(url);
    expect(world.provider.outbox.list().length).toBe(before);
  });
});

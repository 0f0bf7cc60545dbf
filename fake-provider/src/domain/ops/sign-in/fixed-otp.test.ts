import { describe, expect, it } from "vitest";
import type { FakeProvider } from "../../../app.ts";
import { CALLBACK } from "../../../test-support/account.ts";
import {
  api,
  client,
  expectJson,
  expectKnownError,
  newProvider,
  request,
  type TestProvider,
} from "../../../test-support/api.ts";
import { checkedFixedOtp, fixedOtpFor } from "./fixed-otp.ts";

/** Fixed sign-in OTPs by address pattern (`--fixed-otp`, the `fixedOtp` option, PUT /__emulator/fixed-otp). */

const rules = [
  { pattern: "ada@example.com", code: "111111" },
  { pattern: "*@example.com", code: "123456" },
];

async function sendCode(provider: FakeProvider, email: string): Promise<{ nonce: string; otp: string }> {
  const { nonce } = await expectJson<{ nonce: string }>(
    await api(provider, "/auth/otp/send-sign-in-code", { headers: client(), json: { email, callback_url: CALLBACK } }),
  );
  return { nonce, otp: provider.outbox.latest({ to: email, kind: "magic_link" })!.otp! };
}
const signIn = (provider: TestProvider, code: string) =>
  api(provider, "/auth/otp/sign-in", { headers: client(), json: { code } });
const putRules = (provider: TestProvider, json: unknown) =>
  request(provider, "/__emulator/fixed-otp", { method: "PUT", json });

describe("fixed OTP rules", () => {
  it("match addresses case-insensitively, with * for any run of characters; the first matching rule wins", () => {
    expect(fixedOtpFor(rules, "ada@example.com")).toBe("111111");
    expect(fixedOtpFor(rules, "Grace@EXAMPLE.com")).toBe("123456");
    expect(fixedOtpFor(rules, "ada@example.org")).toBeNull();
    expect(fixedOtpFor(rules, "a@example.com.evil.test")).toBeNull();
    expect(fixedOtpFor([{ pattern: "dev+*@x.test", code: "000000" }], "dev+1@x.test")).toBe("000000");
    expect(fixedOtpFor([{ pattern: "*", code: "000000" }], "anyone@anywhere.test")).toBe("000000");
    expect(fixedOtpFor(undefined, "ada@example.com")).toBeNull();
  });

  it("are checked when the provider is made", () => {
    expect(() => checkedFixedOtp([{ pattern: "*@example.com", code: "12345" }])).toThrow(RangeError);
    expect(() => newProvider({ fixedOtp: [{ pattern: "nobody", code: "123456" }] })).toThrow(/names no address/);
  });
});

describe("send-sign-in-code with fixed OTPs", () => {
  it("emails the fixed OTP to a matching address, and the OTP with the answer's nonce signs in once", async () => {
    const provider = newProvider({ fixedOtp: rules });
    const { nonce, otp } = await sendCode(provider, "grace@example.com");
    expect(otp).toBe("123456");
    const mail = provider.outbox.latest({ to: "grace@example.com" })!;
    expect(mail.subject).toContain("123456");
    expect(mail.code).toBe(`123456${nonce}`);
    const first = await expectJson<{ user_id: string; is_new_user: boolean }>(await signIn(provider, `123456${nonce}`));
    expect(first.is_new_user).toBe(true);
    await expectKnownError(await signIn(provider, `123456${nonce}`), "VERIFICATION_CODE_ALREADY_USED", 409);
    expect(provider.unexpected).toEqual([]);
  });

  it("keeps the nonce random, so two codes for one address differ and each is bound to its own request", async () => {
    const provider = newProvider({ fixedOtp: rules });
    const a = await sendCode(provider, "ada@example.com");
    const b = await sendCode(provider, "ada@example.com");
    expect([a.otp, b.otp]).toEqual(["111111", "111111"]);
    expect(a.nonce).not.toBe(b.nonce);
    await expectKnownError(await signIn(provider, `111111${"0".repeat(39)}`), "VERIFICATION_CODE_NOT_FOUND", 404);
    await expectJson(await signIn(provider, `111111${b.nonce}`));
  });

  it("leaves other addresses with random codes", async () => {
    const provider = newProvider({ fixedOtp: rules });
    const { otp } = await sendCode(provider, "linus@example.org");
    expect(otp).toMatch(/^[0-9A-Z]{6}$/);
    expect(["111111", "123456"]).not.toContain(otp);
  });

  it("can be read and replaced at run time through /__emulator/fixed-otp, and survive reset and fork", async () => {
    const provider = newProvider();
    expect(await expectJson(await request(provider, "/__emulator/fixed-otp"))).toEqual({ rules: [] });
    expect(
      await expectJson(await putRules(provider, { rules: [{ pattern: "*@example.net", code: "424242" }] })),
    ).toEqual({
      rules: [{ pattern: "*@example.net", code: "424242" }],
    });
    expect((await sendCode(provider, "ken@example.net")).otp).toBe("424242");
    provider.reset();
    const fork = provider.fork();
    expect((await sendCode(provider, "ken@example.net")).otp).toBe("424242");
    expect((await sendCode(fork, "ken@example.net")).otp).toBe("424242");
  });

  it("refuses unusable rules over HTTP with the reasons, keeping the old ones", async () => {
    const provider = newProvider({ fixedOtp: rules });
    const response = await putRules(provider, {
      rules: [
        { pattern: "*@example.com", code: "12ab56" },
        { pattern: "", code: "123456" },
      ],
    });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { issues: string[] }).issues).toEqual([
      'rules.0: the code "12ab56" is not 6 digits',
      "rules.1: the address pattern is empty",
    ]);
    expect((await putRules(provider, { rule: [] })).status).toBe(400);
    expect(await expectJson(await request(provider, "/__emulator/fixed-otp"))).toEqual({ rules });
  });
});

import { createServer } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { devProjectSeed } from "@authsim/fixtures";
import { startCli, type StartedCli } from "authsim/testing";
import type { ReadyInfo } from "./ready-info.ts";

/**
 * `--dev-ports` (cli-args.ts): the real dev server answers on each port of the development setup's family around its
 * <prefix>02 — purchase pages on 01, Inbucket's mailbox API on 05, Svix on 13, mock OAuth on 14, uploaded images on
 * 21, SMTP on 29 — and --ready-json names them all. One server for the file; what each port answers in detail is tested in process (fake-provider/src/emulator/
 * dev-ports.test.ts, storage/uploaded-images.test.ts).
 */

const SUFFIXES = ["01", "02", "05", "13", "14", "21", "29"];

const portFree = (port: number) =>
  new Promise<boolean>((resolve) => {
    const probe = createServer();
    probe.once("error", () => resolve(false));
    probe.listen(port, "127.0.0.1", () => probe.close(() => resolve(true)));
  });

/** A prefix whose whole family is free on this machine (other servers may hold some ports). */
async function freePrefix(): Promise<number> {
  // Started from the process id, so parallel runs look in different places.
  for (let prefix = 450 + (process.pid % 150); prefix < 650; prefix++) {
    const free = await Promise.all(SUFFIXES.map((s) => portFree(Number(`${prefix}${s}`))));
    if (free.every(Boolean)) return prefix;
  }
  throw new Error("no free port family");
}

let cli: StartedCli;
let prefix: number;
const at = (suffix: string, path: string) => `http://localhost:${prefix}${suffix}${path}`;

beforeAll(async () => {
  prefix = await freePrefix();
  cli = await startCli(["--port", `${prefix}02`, "--host", "localhost", "--dev-ports", "--ready-json"]);
  // The side ports' lines come once each listens.
  for (let i = 0; i < 100 && !/Uploaded images: /.test(cli.banner); i++) await new Promise((r) => setTimeout(r, 50));
}, 90_000);
afterAll(() => cli?.stop());

const client = {
  "content-type": "application/json",
  "x-stack-access-type": "client",
  "x-stack-project-id": devProjectSeed.id,
  "x-stack-publishable-client-key": devProjectSeed.keys.publishable_client_key,
};

describe("--dev-ports", () => {
  it("names every port of the family on --ready-json's line, the SMTP server's included", async () => {
    // The line comes once every port listens (the banner goes to stderr with --ready-json).
    await expect.poll(() => /^\{.*\}$/m.test(cli.banner), { timeout: 10_000 }).toBe(true);
    const info = JSON.parse(/^\{.*\}$/m.exec(cli.banner)![0]) as ReadyInfo;
    const port = (suffix: string) => Number(`${prefix}${suffix}`);
    expect(info.ports).toEqual({
      api: port("02"),
      purchase: port("01"),
      mailbox: port("05"),
      svix: port("13"),
      mockOAuth: port("14"),
      storage: port("21"),
      smtp: port("29"),
    });
  });

  it("serves the family: purchase URLs and pages on 01, the mailbox on 05, images on 21, Svix on 13, mock OAuth on 14", async () => {
    const signUp = await fetch(at("02", "/api/v1/auth/password/sign-up"), {
      method: "POST",
      headers: client,
      body: JSON.stringify({
        email: "ports@example.com",
        password: "correct horse battery",
        verification_callback_url: "http://localhost:3000/handler/email-verification",
      }),
    });
    const { access_token, user_id } = (await signUp.json()) as { access_token: string; user_id: string };
    const auth = { ...client, "x-stack-access-token": access_token };

    // Mailbox (05): the verification email, as the real suite's Mailbox lists it.
    const mailbox = (await (await fetch(at("05", "/api/v1/mailbox/ports"))).json()) as { subject: string }[];
    expect(mailbox.map((m) => m.subject)).toEqual([expect.stringContaining("Verify your email")]);

    // Storage (21): an uploaded image's URL answers its bytes.
    const gif = "R0lGODlhAQABAAAAACH5BAEKAAEALAAAAAABAAEAAAICTAEAOw==";
    const patched = await fetch(at("02", "/api/v1/users/me"), {
      method: "PATCH",
      headers: auth,
      body: JSON.stringify({ profile_image_url: `data:image/gif;base64,${gif}` }),
    });
    const { profile_image_url } = (await patched.json()) as { profile_image_url: string };
    expect(profile_image_url).toMatch(new RegExp(`^${at("21", "/stack-storage/user-profile-images/")}`));
    const image = await fetch(profile_image_url);
    expect([image.status, image.headers.get("content-type")]).toEqual([200, "image/gif"]);
    expect(Buffer.from(await image.arrayBuffer()).toString("base64")).toBe(gif);

    // Purchase (01): the dev project sells from the start; its URL opens the page on the dashboard's port.
    const purchase = await fetch(at("02", "/api/v1/payments/purchases/create-purchase-url"), {
      method: "POST",
      headers: auth,
      body: JSON.stringify({ customer_type: "user", customer_id: user_id, product_id: "credit-pack" }),
    });
    const body = (await purchase.json()) as { url?: string };
    expect(body.url, JSON.stringify(body)).toMatch(new RegExp(`^${at("01", "/purchase/")}`));
    expect((await fetch(body.url!)).status).toBe(200);

    // The side ports keep the API's guards: a foreign page may not post the purchase form, and no port holds a huge body.
    const foreign = await fetch(at("01", "/__emulator/checkout/x"), {
      method: "POST",
      headers: { origin: "http://evil.example", "content-type": "application/x-www-form-urlencoded" },
      body: "price_id=once",
    });
    expect(foreign.status).toBe(403);
    const huge = await fetch(at("13", "/api/v1/app"), { method: "POST", body: "x".repeat(9 * 1024 * 1024) });
    expect(huge.status).toBe(413);

    // Svix (13): its API, which wants a token; mock OAuth (14): its discovery document names its own origin.
    expect((await fetch(at("13", "/api/v1/app/anything"))).status).toBe(401);
    const discovery = (await (await fetch(at("14", "/.well-known/openid-configuration"))).json()) as { issuer: string };
    expect(discovery.issuer).toBe(at("14", ""));
  });
});

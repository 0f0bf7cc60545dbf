import { afterEach, describe, expect, it } from "vitest";
import { exportJWK, generateKeyPair, type JWK } from "jose";
import { webCryptoBackend } from "@authsim/fake-provider";
import { signingThread, type SigningThread } from "./signing-thread.ts";

const web = webCryptoBackend();

async function keyPair(kid: string): Promise<{ privateJwk: JWK; publicJwk: JWK }> {
  const { privateKey, publicKey } = await generateKeyPair("ES256", { extractable: true });
  return { privateJwk: { ...(await exportJWK(privateKey)), kid }, publicJwk: { ...(await exportJWK(publicKey)), kid } };
}

const notOnThisThread = () => {
  throw new Error("signed on the main thread");
};

let thread: SigningThread;
afterEach(async () => thread?.close());

describe("the signing thread", () => {
  it("signs a turn's signatures in one batch, each for its own input and key", async () => {
    thread = signingThread(notOnThisThread);
    const a = await keyPair("a");
    const b = await keyPair("b");
    const jobs = Array.from({ length: 40 }, (_, i) => ({ key: i % 3 === 0 ? b : a, input: `header.payload-${i}` }));
    const signatures = await Promise.all(jobs.map((job) => thread.signEs256(job.key.privateJwk, job.input)));
    for (const [i, job] of jobs.entries()) {
      expect(signatures[i]).toHaveLength(64);
      expect(await web.verifyEs256(job.key.publicJwk, job.input, signatures[i]!)).toBe(true);
      // Not another job's signature: the next input, under the same key, does not verify with it.
      expect(await web.verifyEs256(job.key.publicJwk, `header.payload-${i + 1}`, signatures[i]!)).toBe(false);
    }
    // Later turns reuse the keys the thread already holds.
    const again = await thread.signEs256(a.privateJwk, "header.later");
    expect(await web.verifyEs256(a.publicJwk, "header.later", again)).toBe(true);
  });

  it("sends what is asked while the thread signs a batch in the next one", async () => {
    thread = signingThread(notOnThisThread);
    const key = await keyPair("k");
    const asked: { input: string; signature: Promise<Uint8Array> }[] = [];
    for (let turn = 0; turn < 6; turn++) {
      for (let i = 0; i < 5; i++)
        asked.push({
          input: `header.${turn}-${i}`,
          signature: thread.signEs256(key.privateJwk, `header.${turn}-${i}`),
        });
      await new Promise((resolve) => setImmediate(resolve));
    }
    for (const { input, signature } of asked)
      expect(await web.verifyEs256(key.publicJwk, input, await signature)).toBe(true);
  });

  it("refuses only the signatures whose key cannot be used", async () => {
    thread = signingThread(notOnThisThread);
    const good = await keyPair("good");
    const broken: JWK = { kty: "EC", crv: "P-256", x: "not", y: "a", d: "key" };
    const [bad, fine] = await Promise.allSettled([
      thread.signEs256(broken, "header.x"),
      thread.signEs256(good.privateJwk, "header.y"),
    ]);
    expect(bad.status).toBe("rejected");
    expect(fine.status === "fulfilled" && (await web.verifyEs256(good.publicJwk, "header.y", fine.value))).toBe(true);
  });

  it("starts a new thread after close, with the keys sent again", async () => {
    thread = signingThread(notOnThisThread);
    const key = await keyPair("k");
    await thread.signEs256(key.privateJwk, "header.one");
    await thread.close();
    const signature = await thread.signEs256(key.privateJwk, "header.two");
    expect(await web.verifyEs256(key.publicJwk, "header.two", signature)).toBe(true);
  });

  it("stops when idle and starts again on the next signature", async () => {
    thread = signingThread(notOnThisThread, { idleMillis: 50 });
    const key = await keyPair("k");
    await thread.signEs256(key.privateJwk, "header.one");
    expect(thread.running).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(thread.running).toBe(false);
    const signature = await thread.signEs256(key.privateJwk, "header.two");
    expect(await web.verifyEs256(key.publicJwk, "header.two", signature)).toBe(true);
  });

  it("signs on a new thread asked the moment the idle one is stopped, before the old one has exited", async () => {
    thread = signingThread(notOnThisThread, { idleMillis: 20 });
    const key = await keyPair("k");
    await thread.signEs256(key.privateJwk, "header.one");
    while (thread.running) await new Promise((resolve) => setTimeout(resolve, 1));
    const signature = await thread.signEs256(key.privateJwk, "header.two");
    expect(await web.verifyEs256(key.publicJwk, "header.two", signature)).toBe(true);
  });

  it("refuses the signatures of a batch closed before it was sent", async () => {
    thread = signingThread(notOnThisThread);
    const key = await keyPair("k");
    const refused = expect(thread.signEs256(key.privateJwk, "header.one")).rejects.toThrow("signing thread stopped");
    await thread.close();
    await refused;
  });
});

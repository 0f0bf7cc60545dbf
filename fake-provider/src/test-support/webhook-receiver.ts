import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll } from "vitest";

/** A webhook endpoint on a loopback port for tests: records what it receives and answers as the test says. */

export interface Received {
  headers: Record<string, string>;
  body: string;
}

export interface Receiver {
  url: string;
  received: Received[];
  /** How the next requests are answered (default: 204). */
  answer: (res: ServerResponse, received: Received) => void;
  close(): Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
  const receiver: Receiver = {
    url: "",
    received: [],
    answer: (res) => res.writeHead(204).end(),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)]));
      const received = { headers, body: Buffer.concat(chunks).toString("utf8") };
      receiver.received.push(received);
      receiver.answer(res, received);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhook`;
  // Requests left hanging by a test (a slow endpoint) must not keep close() waiting.
  const close = receiver.close;
  receiver.close = () => {
    server.closeAllConnections();
    return close();
  };
  return receiver;
}

const answerNoContent: Receiver["answer"] = (res) => res.writeHead(204).end();

/**
 * One receiver for a test file: listening before its tests, closed after them, and between tests emptied and back to
 * answering 204. The object is the same throughout, so tests read `receiver.url` when they run.
 */
export function receiverForTests(): Receiver {
  const shared: Receiver = { url: "", received: [], answer: answerNoContent, close: () => Promise.resolve() };
  let started: Receiver | null = null;
  beforeAll(async () => {
    started = await startReceiver();
    shared.url = started.url;
    // The server answers with the shared object's current answer, into its list.
    started.answer = (res, received) => shared.answer(res, received);
    const received = started.received;
    shared.received = received;
  });
  afterEach(() => {
    shared.received.length = 0;
    shared.answer = answerNoContent;
  });
  afterAll(() => started?.close());
  return shared;
}

import { request } from "node:http";

/** What a server answered to an upload, and how long the answer took from the request's start. */
export interface UploadAnswer {
  status: number;
  text: string;
  millis: number;
}

/**
 * Posts `total` bytes of JSON whitespace in 64 KiB chunks (with a Content-Length when `declared`, else chunked) over
 * Node's HTTP client, as fast as the server takes them, and stops sending once the answer has come: what a page
 * uploading a huge body does, for the body-limit tests (request-body.ts, cli.ts).
 */
export function upload(
  url: string,
  total: number,
  declared: boolean,
  headers: Record<string, string> = {},
): Promise<UploadAnswer> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    let sent = 0;
    const outgoing = request(
      url,
      {
        method: "POST",
        headers: {
          "content-type": "application/json",
          ...headers,
          ...(declared ? { "content-length": String(total) } : {}),
        },
      },
      (response) => {
        const millis = performance.now() - started;
        let text = "";
        response.setEncoding("utf8");
        response.on("data", (chunk: string) => (text += chunk));
        response.on("end", () => {
          resolve({ status: response.statusCode!, text, millis });
          // The rest of the upload is not needed.
          outgoing.destroy();
        });
      },
    );
    // An error after the answer (the upload cut short) changes nothing: the promise is settled.
    outgoing.on("error", reject);
    const chunk = Buffer.alloc(64 * 1024, 0x20);
    const pump = () => {
      while (sent < total && !outgoing.destroyed) {
        const piece = total - sent < chunk.byteLength ? chunk.subarray(0, total - sent) : chunk;
        sent += piece.byteLength;
        if (!outgoing.write(piece)) return void outgoing.once("drain", pump);
      }
      if (!outgoing.destroyed) outgoing.end();
    };
    pump();
  });
}

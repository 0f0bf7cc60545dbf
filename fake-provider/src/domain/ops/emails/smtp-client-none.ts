import type { SendOverSmtp } from "./smtp-delivery.ts";

/**
 * What a browser (or any runtime without the "node" condition) gets for `#smtp-client`: no TCP sockets, so every
 * attempt fails as a refused connection does (the real service reads that as an unknown error, not retried).
 */
export const sendOverSmtp: SendOverSmtp = (server) =>
  Promise.resolve({
    ok: false,
    failure: {
      message: `connect ECONNREFUSED ${server.host}:${server.port}: this runtime cannot open SMTP connections`,
      code: "ECONNECTION",
    },
  });

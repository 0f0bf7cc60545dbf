import { serve, type Http2Bindings, type HttpBindings } from "@hono/node-server";
import { hostRefusal, MAX_BODY_BYTES, type HostPolicy } from "@authsim/fake-provider/dev-server";
import type { ReadyInfo } from "./ready-info.ts";
import { withBodyLimit } from "./request-body.ts";

/** What every side port shares with the API's: its Host check, where it binds, the banner, the list of ports to await. */
export interface SidePorts {
  requestGuard: HostPolicy;
  host: string;
  log: (line: string) => void;
  listening: Promise<[string, number]>[];
}

/**
 * Starts a side server of the real development setup's port family (--mock-oauth-port, --svix-port, --dev-ports),
 * behind the same Host check as the API; ready once it listens. A port in use stops the start, naming the flag that
 * chose it.
 */
export function serveSide(
  ports: SidePorts,
  name: keyof ReadyInfo["ports"],
  port: number,
  fetch: (request: Request) => Response | Promise<Response>,
  flag: string,
  banner: () => string,
  /** Refusals before the body is read (the purchase port's: the control plane's, as its form posts to it). */
  guard: (request: Request) => Response | null = () => null,
): void {
  let sideListening!: (port: [string, number]) => void;
  ports.listening.push(new Promise((resolve) => (sideListening = resolve)));
  const side = serve(
    {
      // The API's body limit on every side port too: any web page can send this machine's ports a body.
      fetch: (request: Request, env?: HttpBindings | Http2Bindings) =>
        hostRefusal(request, ports.requestGuard) ??
        guard(request) ??
        withBodyLimit(request, env, MAX_BODY_BYTES, fetch),
      port,
      hostname: ports.host,
    },
    () => {
      sideListening([name, port]);
      ports.log(banner());
    },
  );
  side.on("error", (error: NodeJS.ErrnoException) => {
    console.error(error.code === "EADDRINUSE" ? `Port ${port} is in use: pass another ${flag}.` : error.message);
    process.exit(1);
  });
}

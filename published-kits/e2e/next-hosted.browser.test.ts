import { describeHostedMode } from "./hosted-mode-flows.ts";
import { startNext } from "./next-app.ts";

/**
 * The Next.js app on the published @stackframe/stack (../next) in hosted mode: the same build as its own test, run
 * with the template line `npm start` prints in its env, which makes every handler page the hosted one. The client
 * component's page brings the person back (a server component's redirect knows no current URL, as in ./next.browser).
 */
describeHostedMode({
  kit: "next",
  title: "the published @stackframe/stack in a Next.js app",
  protectedPath: "/protected-client",
  startApp: (apiUrl, template) => startNext(apiUrl, { NEXT_PUBLIC_STACK_HOSTED_HANDLER_URL_TEMPLATE: template }),
});

import "server-only";
import { StackServerApp } from "@stackframe/stack";

/**
 * The app's one Stack app, as the kit's Next.js setup has it (nextjs-cookie token store), configured from the env lines
 * `npm start` prints — read when the server runs, not when it is built, so one build serves any emulator port. The
 * browser gets the same base URL and publishable key from <StackProvider> (the kit serialises this app for it).
 */
function env(name: string): string {
  const value = process.env[name];
  if (!value)
    throw new Error(`${name} is not set: start this app with the env lines \`npm start\` prints (see ../README.md).`);
  return value;
}

/**
 * Hosted mode: with NEXT_PUBLIC_STACK_HOSTED_HANDLER_URL_TEMPLATE set (the env line `npm start` prints), every handler
 * page is the hosted one. Read when the server runs, as the other settings are (app/hosted-template.tsx gives the
 * browser the same value).
 */
export const hostedHandlerUrlTemplate = process.env.NEXT_PUBLIC_STACK_HOSTED_HANDLER_URL_TEMPLATE || null;

export const stackServerApp = new StackServerApp({
  baseUrl: env("STACK_API_URL"),
  projectId: env("STACK_PROJECT_ID"),
  publishableClientKey: env("STACK_PUBLISHABLE_CLIENT_KEY"),
  secretServerKey: env("STACK_SECRET_SERVER_KEY"),
  tokenStore: "nextjs-cookie",
  ...(hostedHandlerUrlTemplate ? { urls: { default: { type: "hosted" as const } } } : {}),
});

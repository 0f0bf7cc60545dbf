import { hostedHandlerUrlTemplate } from "../hosted/src/hosted-config.ts";

/**
 * The lines to paste into an app's env: the names both our SDK and the published SDK read (sdk-surface.md §2), and the
 * published kit's address of the hosted pages for its hosted mode (`urls: { default: { type: "hosted" } }`): the
 * emulator serves them per project at `<projectId>.localhost` on its own port.
 */
export function envLines(
  apiUrl: string,
  project: { id: string; publishable: string; secret: string; admin: string },
): string[] {
  return [
    `STACK_API_URL=${apiUrl}`,
    `STACK_PROJECT_ID=${project.id}`,
    `STACK_PUBLISHABLE_CLIENT_KEY=${project.publishable}`,
    `STACK_SECRET_SERVER_KEY=${project.secret}`,
    `STACK_SUPER_SECRET_ADMIN_KEY=${project.admin}`,
    `NEXT_PUBLIC_STACK_API_URL=${apiUrl}`,
    `NEXT_PUBLIC_STACK_PROJECT_ID=${project.id}`,
    `NEXT_PUBLIC_STACK_PUBLISHABLE_CLIENT_KEY=${project.publishable}`,
    `NEXT_PUBLIC_STACK_HOSTED_HANDLER_URL_TEMPLATE=${hostedHandlerUrlTemplate(apiUrl)}`,
  ];
}

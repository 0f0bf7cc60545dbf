import { StackProvider, StackTheme } from "@stackframe/stack";
import type { ReactNode } from "react";
import { hostedHandlerUrlTemplate, stackServerApp } from "../stack/server";
import { HostedTemplate } from "./hosted-template";

// Every page reads the visitor's cookies and the emulator's address at request time: nothing is prerendered.
export const dynamic = "force-dynamic";

export const metadata = { title: "Published @stackframe/stack on authsim" };

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <head>{hostedHandlerUrlTemplate && <HostedTemplate template={hostedHandlerUrlTemplate} />}</head>
      <body>
        <StackProvider app={stackServerApp}>
          <StackTheme>{children}</StackTheme>
        </StackProvider>
      </body>
    </html>
  );
}

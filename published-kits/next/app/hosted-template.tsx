/**
 * The hosted pages' address for the kit in the browser. Next.js writes a NEXT_PUBLIC_* value into the client bundles
 * when it builds, but this build serves any emulator port; so the server, which reads the env line when it runs, hands
 * it to the page. The kit reads process.env, which Next.js's client takes from the page's own `process` when one exists
 * as its code starts: an inline script in the head, which runs as the page is parsed, before the deferred bundles.
 * (Next's <Script strategy="beforeInteractive"> runs too late for that in the app router.) With the value set at build
 * time instead, none of this would be needed.
 */
export function HostedTemplate({ template }: { template: string }) {
  const env = JSON.stringify({ NEXT_PUBLIC_STACK_HOSTED_HANDLER_URL_TEMPLATE: template }).replace(/</g, "\\u003c");
  const code = `window.process = window.process || {}; window.process.env = Object.assign(window.process.env || {}, ${env});`;
  return <script id="hosted-handler-url-template" dangerouslySetInnerHTML={{ __html: code }} />;
}

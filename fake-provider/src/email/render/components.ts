import type * as ReactModule from "react";
import type { CSSProperties, ReactNode } from "react";

/**
 * The modules an email's TSX may import besides React (protocol.md §5.12): `@stackframe/emails` (Subject and
 * NotificationCategory, which set the email's subject and category and render nothing) and the `@react-email/components`
 * most themes use. These are small stand-ins that render the same table-based HTML shapes as react-email, without its
 * Tailwind-to-inline-CSS step (class names are kept as `class` attributes).
 */

/** What the template declared while rendering. */
export interface RenderCollector {
  subject?: string;
  notificationCategory?: string;
}

type Props = { children?: ReactNode; style?: CSSProperties; [key: string]: unknown };

export function emailModules(React: typeof ReactModule, collector: RenderCollector): Record<string, unknown> {
  const h = React.createElement;
  const table = (style: CSSProperties | undefined, rest: Record<string, unknown>, children: ReactNode) =>
    h(
      "table",
      { align: "center", width: "100%", border: 0, cellPadding: "0", cellSpacing: "0", role: "presentation", ...rest, style },
      h("tbody", null, h("tr", { style: { width: "100%" } }, h("td", null, children))),
    );

  const stackEmails = {
    Subject: ({ value }: { value: string }) => {
      collector.subject = String(value);
      return null;
    },
    NotificationCategory: ({ value }: { value: string }) => {
      collector.notificationCategory = String(value);
      return null;
    },
  };

  const reactEmail = {
    Html: ({ children, lang = "en", dir = "ltr", ...rest }: Props) => h("html", { lang, dir, ...rest }, children),
    Head: ({ children, ...rest }: Props) =>
      h("head", rest, h("meta", { content: "text/html; charset=UTF-8", httpEquiv: "Content-Type" }), h("meta", { name: "x-apple-disable-message-reformatting" }), children),
    Body: ({ children, ...rest }: Props) => h("body", rest, children),
    Container: ({ children, style, ...rest }: Props) => table({ maxWidth: "37.5em", ...style }, rest, children),
    Section: ({ children, style, ...rest }: Props) => table(style, rest, children),
    Row: ({ children, style, ...rest }: Props) =>
      h("table", { align: "center", width: "100%", border: 0, cellPadding: "0", cellSpacing: "0", role: "presentation", ...rest, style }, h("tbody", { style: { width: "100%" } }, h("tr", { style: { width: "100%" } }, children))),
    Column: ({ children, ...rest }: Props) => h("td", { "data-id": "__react-email-column", ...rest }, children),
    Text: ({ children, style, ...rest }: Props) => h("p", { ...rest, style: { fontSize: "14px", lineHeight: "24px", margin: "16px 0", ...style } }, children),
    Link: ({ children, style, target = "_blank", ...rest }: Props) => h("a", { ...rest, target, style: { color: "#067df7", textDecorationLine: "none", ...style } }, children),
    Button: ({ children, style, target = "_blank", ...rest }: Props) =>
      h("a", { ...rest, target, style: { lineHeight: "100%", textDecoration: "none", display: "inline-block", maxWidth: "100%", ...style } }, h("span", null, children)),
    Heading: ({ children, as = "h1", ...rest }: Props) => h(String(as), rest, children),
    Hr: ({ style, ...rest }: Props) => h("hr", { ...rest, style: { width: "100%", border: "none", borderTop: "1px solid #eaeaea", ...style } }),
    Img: ({ style, ...rest }: Props) => h("img", { ...rest, style: { display: "block", outline: "none", border: "none", textDecoration: "none", ...style } }),
    Preview: ({ children }: Props) =>
      h("div", { style: { display: "none", overflow: "hidden", lineHeight: "1px", opacity: 0, maxHeight: 0, maxWidth: 0 } }, children),
    Tailwind: ({ children }: Props) => h(React.Fragment, null, children),
    Font: () => null,
  };

  return { "@stackframe/emails": stackEmails, "@react-email/components": reactEmail };
}

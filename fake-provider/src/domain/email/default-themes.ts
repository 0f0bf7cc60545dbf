/**
 * The default email themes every project starts with (protocol.md §5.12), as real TSX modules rendered by
 * domain/email/render/sandbox.ts like any an admin writes; their ids are the values of the project's `email_theme`
 * setting. The default templates are in default-sources.ts.
 */

/** The real service's fixed ids of its default themes (its config defaults use them). */
export const DEFAULT_THEME_ID = "1df07ae6-abf3-4a40-83a5-a1a2cbe336ac";
export const DEFAULT_DARK_THEME_ID = "a0172b5d-cff0-463b-83bb-85124697373a";
export const DEFAULT_COLORFUL_THEME_ID = "c7e2d94f-8a1b-4e6d-b3f5-9d0a2e7c1b8f";
/** Ids earlier versions of authsim gave the two default themes; a stored project or a caller may still name them. */
export const LEGACY_THEME_IDS: Readonly<Record<string, string>> = {
  "default-light": DEFAULT_THEME_ID,
  "default-dark": DEFAULT_DARK_THEME_ID,
};
/**
 * What "no theme" (theme_id false) renders with: upstream still wraps the content in a bare document (html and body,
 * nothing styled), so an email without a theme is a whole HTML document, not a fragment.
 */
export const EMPTY_THEME_SOURCE = `import { Html, Body } from "@react-email/components";
export function EmailTheme({ children }) {
  return <Html><Body>{children}</Body></Html>;
}`;

/**
 * The look of a default theme. The real default themes style their elements with Tailwind classes, which its Tailwind
 * component turns into inline styles; ours write those inline styles directly, so that they render the same HTML
 * without loading Tailwind into the sandbox (seconds in QuickJS, library-files.ts). A template's own Tailwind classes
 * are therefore left as classes in our default themes (docs/emulator.md).
 */
interface ThemeLook {
  /** The page's background and text (the body). */
  page: string;
  /** The card's style (the Container). */
  card: string;
  /** The colour of the unsubscribe link. */
  link: string;
  /** Which of the project's logos it shows. */
  mode: "light" | "dark";
}

const FONT_FAMILY = `'ui-sans-serif,system-ui,sans-serif,"Apple Color Emoji","Segoe UI Emoji","Segoe UI Symbol","Noto Color Emoji"'`;
const SHADOW = `"0 0 rgb(0,0,0,0),0 0 rgb(0,0,0,0),0 0 rgb(0,0,0,0),0 0 rgb(0,0,0,0),0 1px 3px 0 var(--tw-shadow-color, rgb(0 0 0 / 0.1)),0 1px 2px -1px var(--tw-shadow-color, rgb(0 0 0 / 0.1))"`;

const theme = (look: ThemeLook) => `import { Html, Head, Body, Container, Section, Img } from "@react-email/components";
import type { ThemeProps } from "@stackframe/emails";

// The project's logo for a ${look.mode} background: the full logo if there is one, else the square one beside nothing.
function Logo({ logos }: { logos: ThemeProps["projectLogos"] }) {
  const full = ${look.mode === "dark" ? "logos?.logoFullDarkModeUrl" : "logos?.logoFullUrl"};
  const square = ${look.mode === "dark" ? "logos?.logoDarkModeUrl" : "logos?.logoUrl"};
  if (full) return <Img alt="Full Logo" src={full} style={{ height: "4rem" }} />;
  if (square) {
    return (
      <div style={{ display: "flex", gap: "0.5rem", alignItems: "center" }}>
        <Img alt="Logo" src={square} style={{ height: "2rem" }} />
      </div>
    );
  }
  return null;
}

export function EmailTheme({ children, unsubscribeLink, projectLogos }: ThemeProps) {
  return (
    <Html>
      <Head />
      <Body style={{ ${look.page}, margin: "0rem", padding: "0rem", overflowX: "hidden" }}>
        <div style={{ paddingBottom: "2rem", paddingTop: "2rem", paddingRight: "1rem", paddingLeft: "1rem", display: "flex", justifyContent: "center" }}>
          <Container style={{ ${look.card} }}>
            <Logo logos={projectLogos} />
            {children}
          </Container>
        </div>
        {unsubscribeLink ? (
          <Section style={{ padding: "1rem", opacity: "60%", textAlign: "center" }}>
            <a href={unsubscribeLink} target="_blank" rel="noopener noreferrer" style={{ color: "${look.link}" }}>Click here</a> to unsubscribe from these emails
          </Section>
        ) : null}
      </Body>
    </Html>
  );
}

// What a preview shows: an unsubscribe link, as the real default themes' previews do.
EmailTheme.PreviewProps = { unsubscribeLink: "https://example.com" };
`;

const lightCard = `backgroundColor: "rgb(255,255,255)", padding: "45px", borderRadius: "0.5rem", boxShadow: ${SHADOW}, marginRight: "auto", marginLeft: "auto", width: "100%", maxWidth: "600px"`;

export const defaultThemes: readonly { id: string; displayName: string; tsxSource: string }[] = [
  {
    id: DEFAULT_THEME_ID,
    displayName: "Default Light",
    tsxSource: theme({
      page: `backgroundColor: "rgb(250,251,251)", fontFamily: ${FONT_FAMILY}, fontSize: "1rem", lineHeight: "1.5"`,
      card: lightCard,
      link: "rgb(21,93,252)",
      mode: "light",
    }),
  },
  {
    id: DEFAULT_DARK_THEME_ID,
    displayName: "Default Dark",
    tsxSource: theme({
      page: `backgroundColor: "rgb(50,50,50)", fontFamily: ${FONT_FAMILY}, color: "rgb(255,255,255)"`,
      card: lightCard.replace('"rgb(255,255,255)"', '"rgb(0,0,0)"'),
      link: "rgb(21,93,252)",
      mode: "dark",
    }),
  },
  {
    id: DEFAULT_COLORFUL_THEME_ID,
    displayName: "Default Colorful",
    tsxSource: theme({
      page: `backgroundColor: "rgb(240,238,246)", fontFamily: ${FONT_FAMILY}, fontSize: "1rem", lineHeight: "1.5"`,
      card: `backgroundColor: "rgb(255,255,255)", padding: "45px", borderRadius: "1rem", marginRight: "auto", marginLeft: "auto", width: "100%", maxWidth: "600px", borderTop: "4px solid #7c5ce0"`,
      link: "rgb(124,92,224)",
      mode: "light",
    }),
  },
];

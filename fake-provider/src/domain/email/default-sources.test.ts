import { describe, expect, it } from "vitest";
import { DEFAULT_TEMPLATE_IDS, defaultTemplates, defaultThemes } from "./default-sources.ts";
import { renderEmailSources } from "./render/sandbox.ts";

/**
 * Our default themes and templates render the real ones' HTML (their sources are ours: inline styles where the real
 * ones have Tailwind classes). The default theme's HTML below is the real service's, from its e2e suite's snapshot of
 * an email sent with it ("send email to all users"); the templates' HTML is pinned in the snapshot file, checked
 * against the real templates rendered with the real default theme when it was written.
 */

const DEFAULT_THEME_ALL_USERS_EMAIL =
  '<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Transitional//EN" "http://www.w3.org/TR/xhtml1/DTD/xhtml1-transitional.dtd"><html dir="ltr" lang="en"><head><meta content="text/html; charset=UTF-8" http-equiv="Content-Type"/><meta name="x-apple-disable-message-reformatting"/></head><body style="background-color:rgb(250,251,251);margin:0"><!--$--><table border="0" width="100%" cellPadding="0" cellSpacing="0" role="presentation" align="center"><tbody><tr><td style="background-color:rgb(250,251,251);font-family:ui-sans-serif,system-ui,sans-serif,&quot;Apple Color Emoji&quot;,&quot;Segoe UI Emoji&quot;,&quot;Segoe UI Symbol&quot;,&quot;Noto Color Emoji&quot;;font-size:1rem;line-height:1.5;margin:0rem;padding:0rem;overflow-x:hidden"><div style="padding-bottom:2rem;padding-top:2rem;padding-right:1rem;padding-left:1rem;display:flex;justify-content:center"><table align="center" width="100%" border="0" cellPadding="0" cellSpacing="0" role="presentation" style="max-width:600px;background-color:rgb(255,255,255);padding:45px;border-radius:0.5rem;box-shadow:0 0 rgb(0,0,0,0),0 0 rgb(0,0,0,0),0 0 rgb(0,0,0,0),0 0 rgb(0,0,0,0),0 1px 3px 0 var(--tw-shadow-color, rgb(0 0 0 / 0.1)),0 1px 2px -1px var(--tw-shadow-color, rgb(0 0 0 / 0.1));margin-right:auto;margin-left:auto;width:100%"><tbody><tr style="width:100%"><td><div><p>All users test</p></div></td></tr></tbody></table></div></td></tr></tbody></table><!--7--><!--/$--></body></html>';

describe("the default theme", () => {
  it("renders the real default theme's HTML around an email's content", async () => {
    const rendered = await renderEmailSources({
      themeSource: defaultThemes[0]!.tsxSource,
      templateSource: "export function EmailTemplate() { return <div><p>All users test</p></div>; }",
      project: { displayName: "Acme" },
      user: { displayName: "Ann" },
    });
    expect(rendered.html).toBe(DEFAULT_THEME_ALL_USERS_EMAIL);
    expect(rendered.text).toBe("All users test");
  });
});

describe("the default templates", () => {
  it.each(Object.entries(DEFAULT_TEMPLATE_IDS))(
    "%s renders the real template's preview, subject and text",
    async (_name, id) => {
      const rendered = await renderEmailSources({
        themeSource: defaultThemes[0]!.tsxSource,
        templateSource: defaultTemplates.find((t) => t.id === id)!.tsxSource,
        project: { displayName: "Acme & Co" },
        preview: true,
      });
      expect(rendered).toMatchSnapshot();
    },
    60_000,
  );
});

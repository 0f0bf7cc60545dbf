import { convert } from "html-to-text";

/**
 * The plain-text part of an email, as react-email's `render(email, { plainText: true })` makes it from the same markup:
 * html-to-text with no line wrapping, images and `data-skip-in-text` elements left out, and a link's target after its
 * label unless they are the same, without brackets (react-email 2.0.4's options). html-to-text needs no Node built-ins,
 * so this runs wherever the emulator does.
 */
const plainTextOptions = {
  wordwrap: false as const,
  selectors: [
    { selector: "img", format: "skip" },
    { selector: "[data-skip-in-text=true]", format: "skip" },
    { selector: "a", options: { linkBrackets: false as const, hideLinkHrefIfSameAsText: true } },
  ],
};

export function plainTextOf(markup: string): string {
  return convert(markup, plainTextOptions);
}

/**
 * How a user interface shows an OAuth provider: its name and a small mark drawn as SVG shapes on a 24×24 grid. Kept as
 * data (not markup) so the React pages render it as elements and the emulator's HTML pages as a string (inline in
 * HTML, so without a namespace), from one place, with nothing fetched: the pages work offline. The marks are simplified
 * drawings of our own in the providers' colours; an id without one (a fixture's "mock", a custom provider) gets a disc
 * with its initial.
 */

export interface MarkShape {
  /** SVG path data on the 24×24 grid. */
  d: string;
  fill?: string;
  stroke?: string;
  strokeWidth?: number;
}

export interface ProviderMark {
  name: string;
  shapes: readonly MarkShape[];
  /** A letter drawn over the shapes (the generic mark). */
  letter?: string;
}

const ring = (d: string, stroke: string): MarkShape => ({ d, stroke, strokeWidth: 4 });
const square = (x: number, y: number, fill: string): MarkShape => ({ d: `M${x} ${y}h10v10h-10z`, fill });
const groove = (d: string, strokeWidth: number): MarkShape => ({ d, stroke: "#000", strokeWidth });

const MARKS: Record<string, ProviderMark> = {
  github: {
    name: "GitHub",
    shapes: [
      {
        fill: "#1f2328",
        d: "M12 .5C5.65.5.5 5.65.5 12c0 5.08 3.29 9.39 7.86 10.91.58.1.79-.25.79-.56v-2.17c-3.2.7-3.87-1.37-3.87-1.37-.52-1.33-1.28-1.69-1.28-1.69-1.04-.71.08-.7.08-.7 1.15.08 1.76 1.18 1.76 1.18 1.03 1.76 2.69 1.25 3.35.96.1-.74.4-1.25.73-1.54-2.55-.29-5.24-1.28-5.24-5.69 0-1.26.45-2.28 1.18-3.09-.12-.29-.51-1.46.11-3.05 0 0 .97-.31 3.17 1.18a11 11 0 0 1 5.77 0c2.2-1.49 3.17-1.18 3.17-1.18.63 1.59.23 2.76.11 3.05.74.81 1.18 1.83 1.18 3.09 0 4.42-2.69 5.39-5.26 5.68.41.36.78 1.06.78 2.14v3.17c0 .31.21.67.8.56A11.5 11.5 0 0 0 23.5 12C23.5 5.65 18.35.5 12 .5z",
      },
    ],
  },
  google: {
    name: "Google",
    // A ring of four arcs open at the upper right, and the bar into its centre.
    shapes: [
      ring("M4.48 9.26A8 8 0 0 1 17.66 6.34", "#ea4335"),
      ring("M6.34 17.66A8 8 0 0 1 4.48 9.26", "#fbbc05"),
      ring("M17.66 17.66A8 8 0 0 1 6.34 17.66", "#34a853"),
      ring("M20 12A8 8 0 0 1 17.66 17.66", "#4285f4"),
      { d: "M12 10h10v4H12z", fill: "#4285f4" },
    ],
  },
  microsoft: {
    name: "Microsoft",
    shapes: [square(1, 1, "#f25022"), square(13, 1, "#7fba00"), square(1, 13, "#00a4ef"), square(13, 13, "#ffb900")],
  },
  spotify: {
    name: "Spotify",
    shapes: [
      { d: "M12 0a12 12 0 1 0 0 24 12 12 0 1 0 0-24z", fill: "#1db954" },
      groove("M6 9.3Q12 7.4 18 10.4", 2.2),
      groove("M6.8 12.9Q12 11.5 16.8 13.8", 1.8),
      groove("M7.5 16.3Q12 15.2 15.8 17", 1.4),
    ],
  },
};

/** Names of the standard provider config ids (sdk-surface.md §2) that have no mark of their own here. */
const NAMES: Record<string, string> = {
  facebook: "Facebook",
  discord: "Discord",
  gitlab: "GitLab",
  bitbucket: "Bitbucket",
  linkedin: "LinkedIn",
  apple: "Apple",
  x: "X",
  twitch: "Twitch",
};

/** The provider's display name: a known one, else the id with its first letter capitalised. */
export function providerName(id: string): string {
  const key = id.toLowerCase();
  return MARKS[key]?.name ?? NAMES[key] ?? (id.length > 0 ? id[0]!.toUpperCase() + id.slice(1) : id);
}

export function providerMark(id: string): ProviderMark {
  const known = MARKS[id.toLowerCase()];
  if (known) return known;
  const name = providerName(id);
  return {
    name,
    shapes: [{ d: "M12 0a12 12 0 1 0 0 24 12 12 0 1 0 0-24z", fill: "#57606a" }],
    letter: (name[0] ?? "?").toUpperCase(),
  };
}

const escapeXml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The mark as an inline `<svg>` string (for server-rendered HTML), decorative (the text beside it names the provider). */
export function providerMarkSvg(id: string, size = 20): string {
  const mark = providerMark(id);
  const shapes = mark.shapes
    .map((s) => {
      const paint = s.stroke
        ? `fill="none" stroke="${escapeXml(s.stroke)}" stroke-width="${s.strokeWidth ?? 2}" stroke-linecap="round"`
        : `fill="${escapeXml(s.fill ?? "currentColor")}"`;
      return `<path d="${escapeXml(s.d)}" ${paint}/>`;
    })
    .join("");
  const letter = mark.letter
    ? `<text x="12" y="16.5" text-anchor="middle" font-size="13" font-family="system-ui, sans-serif" font-weight="600" fill="#fff">${escapeXml(mark.letter)}</text>`
    : "";
  return `<svg viewBox="0 0 24 24" width="${size}" height="${size}" aria-hidden="true" focusable="false">${shapes}${letter}</svg>`;
}

/**
 * How a button names an OAuth provider. The ids are the provider config ids of spec §3 (sdk-surface.md §2 lists the
 * standard ones); any other id (e.g. a fixture's "mock") shows with its first letter capitalised.
 */
const NAMES: Record<string, string> = {
  google: "Google",
  github: "GitHub",
  microsoft: "Microsoft",
  spotify: "Spotify",
  facebook: "Facebook",
  discord: "Discord",
  gitlab: "GitLab",
  bitbucket: "Bitbucket",
  linkedin: "LinkedIn",
  apple: "Apple",
  x: "X",
  twitch: "Twitch",
};

export function providerName(id: string): string {
  return NAMES[id.toLowerCase()] ?? (id.length > 0 ? id[0]!.toUpperCase() + id.slice(1) : id);
}

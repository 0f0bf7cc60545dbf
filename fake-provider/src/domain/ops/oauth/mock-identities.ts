import type { RandomSource } from "@authsim/sdk/runtime";

/**
 * Believable accounts for the mock identity provider's page, so a person signs in with one click instead of inventing
 * an account id. A suggestion is new each time (a name drawn from the emulator's one random source); everything else
 * follows from the email by a hash, so the same address always comes back as the same account at the same provider:
 * signing in twice as ada.king@example.com is one user, as it would be at GitHub.
 */

const FIRST = [
  "Ada",
  "Alan",
  "Amara",
  "Aiko",
  "Bilal",
  "Carmen",
  "Chen",
  "Dara",
  "Elif",
  "Emeka",
  "Freya",
  "Hana",
  "Ines",
  "Ivan",
  "Jonas",
  "Kavya",
  "Leila",
  "Lucas",
  "Mateo",
  "Mei",
  "Nadia",
  "Noor",
  "Olga",
  "Priya",
  "Rafael",
  "Sofia",
  "Tariq",
  "Yusuf",
  "Zara",
  "Kofi",
] as const;
const LAST = [
  "Abara",
  "Bauer",
  "Castillo",
  "Dubois",
  "Eriksen",
  "Fujita",
  "Garcia",
  "Haddad",
  "Ivanova",
  "Jensen",
  "Kim",
  "Larsen",
  "Mendes",
  "Nakamura",
  "Okafor",
  "Patel",
  "Quinn",
  "Rossi",
  "Santos",
  "Tanaka",
  "Umarov",
  "Varga",
  "Wang",
  "Yilmaz",
  "Zimmer",
  "Mensah",
  "Novak",
  "Silva",
  "Costa",
  "Reyes",
] as const;

export interface MockAccount {
  accountId: string;
  email: string;
  name: string;
}

/** FNV-1a over the text, once per seed: a stable, well-spread 32-bit number (ids, not secrets). */
function hash32(text: string, seed: number): number {
  let h = (0x811c9dc5 ^ Math.imul(seed + 1, 0x9e3779b1)) >>> 0;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  // A final mix, so ids from texts that differ in one letter differ everywhere.
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b) >>> 0;
  h ^= h >>> 13;
  return h >>> 0;
}

function digits(text: string, count: number): string {
  let out = "";
  for (let seed = 0; out.length < count; seed++) out += hash32(text, seed).toString().padStart(10, "0");
  return out.slice(0, count);
}

function hex(text: string, count: number): string {
  let out = "";
  for (let seed = 0; out.length < count; seed++) out += hash32(text, seed).toString(16).padStart(8, "0");
  return out.slice(0, count);
}

/** An account id shaped like the provider's own: GitHub's number, Google's 21-digit subject, a Microsoft object id. */
function accountIdFor(providerId: string, email: string): string {
  const text = `${providerId.toLowerCase()}\n${email}`;
  switch (providerId.toLowerCase()) {
    case "github":
      return String(1_000_000 + (hash32(text, 99) % 180_000_000));
    case "google":
      return `1${digits(text, 20)}`;
    case "microsoft": {
      const h = hex(text, 32);
      return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
    }
    case "spotify":
      return Array.from({ length: 25 }, (_, i) => (hash32(text, i) % 36).toString(36)).join("");
    default:
      return hex(text, 16);
  }
}

const capitalise = (word: string) => word[0]!.toUpperCase() + word.slice(1).toLowerCase();

/** The name the address suggests (ada.king@ → Ada King), else one drawn from the address's hash. */
function nameFor(email: string): string {
  const local = email.split("@")[0] ?? "";
  const words = local.split(/[._+-]+/).filter((w) => /^[a-z]{2,}$/i.test(w));
  if (words.length > 0) return words.slice(0, 3).map(capitalise).join(" ");
  return `${FIRST[hash32(email, 7) % FIRST.length]} ${LAST[hash32(email, 8) % LAST.length]}`;
}

/** The account an address is at the provider: the same address, the same account id and name, every time. */
export function accountForEmail(providerId: string, email: string): MockAccount {
  const normal = email.trim().toLowerCase();
  return { accountId: accountIdFor(providerId, normal), email: normal, name: nameFor(normal) };
}

/** A uniform index below `n` from the random source (rejection sampling over one byte pair). */
function pick(random: RandomSource, n: number): number {
  const limit = 65536 - (65536 % n);
  for (;;) {
    const [a, b] = random.bytes(2);
    const value = (a! << 8) | b!;
    if (value < limit) return value % n;
  }
}

/** A fresh suggestion for the page: a new name, and an address none of `taken` (accounts already seen) uses. */
export function suggestAccount(random: RandomSource, providerId: string, taken: ReadonlySet<string>): MockAccount {
  let email = "";
  for (let attempt = 0; attempt < 12; attempt++) {
    const first = FIRST[pick(random, FIRST.length)]!;
    const last = LAST[pick(random, LAST.length)]!;
    // After a few collisions, a number keeps the address new (jonas.kim7@…).
    const suffix = attempt < 6 ? "" : String(pick(random, 1000));
    email = `${first}.${last}${suffix}@example.com`.toLowerCase();
    if (!taken.has(email)) break;
  }
  return accountForEmail(providerId, email);
}

/**
 * Card numbers as the emulated payment provider reads them when a browser confirms a setup intent: whether a number is
 * one at all (its length and Luhn check digit), which network issued it (from its leading digits) and which of the
 * provider's documented test numbers are declined. Nothing else of a number is kept: only its brand and last four.
 */

/** The provider's default test card: a browser that names no card saves this one. */
export const DEFAULT_TEST_CARD_NUMBER = "4242424242424242";

/** Test numbers the provider declines (generic decline, insufficient funds, lost card, stolen card). */
const DECLINED = new Set(["4000000000000002", "4000000000009995", "4000000000009987", "4000000000009979"]);

/** The digits of a number typed with spaces or dashes between groups, or null when anything else is in it. */
export function cardDigits(number: string): string | null {
  const digits = number.replace(/[\s-]/g, "");
  return /^\d{12,19}$/.test(digits) ? digits : null;
}

/** The Luhn check every card number carries in its last digit. */
export function passesLuhn(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = digits.charCodeAt(digits.length - 1 - i) - 48;
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

const inRange = (digits: string, length: number, from: number, to: number) => {
  const head = Number(digits.slice(0, length));
  return head >= from && head <= to;
};

/** The brand names the provider reports (lower case), by the issuer ranges of the leading digits. */
export function cardBrand(digits: string): string {
  if (digits.startsWith("4")) return "visa";
  if (inRange(digits, 2, 51, 55) || inRange(digits, 4, 2221, 2720)) return "mastercard";
  if (digits.startsWith("34") || digits.startsWith("37")) return "amex";
  if (digits.startsWith("6011") || digits.startsWith("65") || inRange(digits, 3, 644, 649)) return "discover";
  if (inRange(digits, 4, 3528, 3589)) return "jcb";
  if (digits.startsWith("36") || digits.startsWith("38") || digits.startsWith("39") || inRange(digits, 3, 300, 305))
    return "diners";
  if (digits.startsWith("62")) return "unionpay";
  return "unknown";
}

export const isDeclinedTestCard = (digits: string): boolean => DECLINED.has(digits);

/** A card is good through the last day of its expiry month (UTC): it has expired once that month is over. */
export function hasExpired(expMonth: number, expYear: number, nowMillis: number): boolean {
  return Date.UTC(expYear, expMonth, 1) <= nowMillis;
}

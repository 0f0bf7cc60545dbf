import { describe, expect, it } from "vitest";
import { cardBrand, cardDigits, hasExpired, passesLuhn } from "./cards.ts";

/** Card numbers as the emulated provider reads them: the provider's documented test numbers, one per brand. */

const testNumbers: [string, string][] = [
  ["4242424242424242", "visa"],
  ["5555555555554444", "mastercard"],
  ["2223003122003222", "mastercard"],
  ["378282246310005", "amex"],
  ["6011111111111117", "discover"],
  ["3056930009020004", "diners"],
  ["36227206271667", "diners"],
  ["3566002020360505", "jcb"],
  ["6200000000000005", "unionpay"],
];

describe("card numbers", () => {
  it("name each test number's brand, and each passes the Luhn check while any other last digit fails it", () => {
    for (const [number, brand] of testNumbers) {
      expect([number, cardBrand(number)]).toEqual([number, brand]);
      expect(passesLuhn(number)).toBe(true);
      const last = Number(number.at(-1));
      for (let d = 0; d <= 9; d++) if (d !== last) expect(passesLuhn(`${number.slice(0, -1)}${d}`)).toBe(false);
    }
  });

  it("take groups separated by spaces or dashes, and nothing else", () => {
    expect(cardDigits("4242 4242-4242 4242")).toBe("4242424242424242");
    expect(cardDigits("4242 4242 4242 424x")).toBeNull();
    expect(cardDigits("42424242424")).toBeNull();
    expect(cardDigits("4".repeat(20))).toBeNull();
  });

  it("expire once their month is over (UTC)", () => {
    const midMarch2031 = Date.UTC(2031, 2, 15);
    expect(hasExpired(3, 2031, midMarch2031)).toBe(false);
    expect(hasExpired(2, 2031, midMarch2031)).toBe(true);
    expect(hasExpired(3, 2031, Date.UTC(2031, 3, 1))).toBe(true);
    expect(hasExpired(12, 2030, Date.UTC(2031, 0, 1) - 1)).toBe(false);
  });
});

/**
 * A price, a discount or a "from" price standing alone beside one product: the price box and the
 * add-on offers' prices, which readers of a product's page skip (its text is the description).
 */
import { type DomElement, textOf, walkElements } from "./dom.ts";

const MONEY = String.raw`(?:[$€£¥₹]|US\$|CHF|EUR|USD|GBP)\s?\d[\d,.' ]*(?:\s?(?:USD|EUR|GBP|CHF))?|\d[\d,.' ]*\s?(?:[$€£¥₹]|EUR|USD|GBP|CHF|kr|zł)`;
const PRICE_LINE = new RegExp(
  String.raw`^(?:(?:from|now|was|sale|sale price|regular price|price|only|save|you save|list price|msrp)\s*:?\s*)?(?:${MONEY})(?:\s*(?:[-–/]|to)\s*(?:${MONEY}))?(?:\s*\(?\s*(?:inc|incl|ex|excl)\.?\s*(?:vat|tax)\s*\)?)?$|^-?\d{1,2}\s?%\s?off$|^save\s\d{1,2}\s?%$`,
  "i",
);

/** Whether the element's whole text is a price (or a discount). */
export function isPriceLine(el: DomElement): boolean {
  // "(£2.98 inc. VAT)" under the price: the brackets are not part of it.
  const text = textOf(el)
    .replace(/\s+/g, " ")
    .trim()
    .replace(/^\((.*)\)$/, "$1");
  return text.length > 0 && text.length <= 40 && PRICE_LINE.test(text);
}

/** Remove the price-only elements below `node` (outermost ones). */
export function dropPriceLines(node: DomElement): void {
  const doomed: DomElement[] = [];
  walkElements(node, (el) => {
    if (!isPriceLine(el)) return true;
    doomed.push(el);
    return false;
  });
  for (const el of doomed) el.remove();
}

/** Word counting: the `\w+` runs of a text as Python counts them (letters, numbers, "_"). */

/** What a word is made of; the count below gives what counting `/[\p{L}\p{N}_]+/gu` matches gave. */
const WORD_CHAR = /^[\p{L}\p{N}_]$/u;

/** Per UTF-16 code unit outside ASCII: 0 not looked at yet, 1 word character, 2 not. */
const unitClass = new Uint8Array(65_536);

function isWordUnit(c: number): boolean {
  let k = unitClass[c];
  if (k === 0) {
    k = WORD_CHAR.test(String.fromCharCode(c)) ? 1 : 2;
    unitClass[c] = k;
  }
  return k === 1;
}

/**
 * The number of maximal runs of letters, numbers and "_". One pass over the code units with the
 * class of each cached, instead of a Unicode-property regex match object per word (2-3x the time
 * on a docs page).
 */
export function countWords(text: string): number {
  let n = 0;
  let inWord = false;
  const len = text.length;
  for (let i = 0; i < len; i++) {
    const c = text.charCodeAt(i);
    let word: boolean;
    if (c < 128) {
      word = (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95;
    } else if (c >= 0xd800 && c <= 0xdbff && i + 1 < len) {
      const d = text.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        word = WORD_CHAR.test(text.slice(i, i + 2)); // a character outside the BMP
        i++;
      } else word = false; // a lone surrogate
    } else {
      word = isWordUnit(c);
    }
    if (word && !inWord) n++;
    inWord = word;
  }
  return n;
}

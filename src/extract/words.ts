/** Word counting: the `\w+` runs of a text as Python counts them (letters, numbers, "_"). */

const WORD = /[\p{L}\p{N}_]+/gu;

export function countWords(text: string): number {
  let n = 0;
  WORD.lastIndex = 0;
  while (WORD.exec(text) !== null) n++;
  return n;
}

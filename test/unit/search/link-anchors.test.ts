import { describe, expect, test } from "bun:test";
import { embeddingText } from "../../../src/search/chunking.ts";
import { anchorsOnly } from "../../../src/search/link-anchors.ts";

describe("anchorsOnly", () => {
  test("inline links become their anchors, titles and nested parentheses included", () => {
    expect(
      anchorsOnly(
        'Use [`os.path.join()`](../library/os.path.html#os.path.join "os.path.join") or ' +
          "[the wiki](https://en.wikipedia.org/wiki/Path_(computing)).",
      ),
    ).toBe("Use `os.path.join()` or the wiki.");
  });

  test("images keep their alt text, a linked image its alt, autolinks go", () => {
    expect(anchorsOnly("![A cat](/img/cat.png) see <https://example.com/x> now")).toBe(
      "A cat see  now",
    );
    expect(anchorsOnly("[![logo](/logo.svg)](https://example.com/)")).toBe("logo");
  });

  test("escaped and nested brackets stay in the anchor", () => {
    expect(anchorsOnly("[`a[0]` and \\] more](x.html) end")).toBe("`a[0]` and \\] more end");
  });

  test("what is not a link stays as it is", () => {
    for (const text of [
      "an array a[0] (the first) and [note] (later)",
      "[unclosed](no end",
      "[a](b\nc)",
      "[para one\n\n](x)",
      "x < http and <httpfoo bar>",
      "plain text",
    ]) {
      expect(anchorsOnly(text)).toBe(text);
    }
  });

  test("a table of links keeps its cells' anchors", () => {
    const table = "| [os](os.html) | Miscellaneous interfaces |\n| --- | --- |";
    expect(anchorsOnly(table)).toBe("| os | Miscellaneous interfaces |\n| --- | --- |");
  });
});

test("embeddingText gives the model anchors, not link targets", () => {
  const text = embeddingText(
    { heading: "Files", text: "Read with [`open()`](functions.html#open) and close." },
    "Tutorial",
  );
  expect(text).toBe("Tutorial > Files\n\nRead with `open()` and close.");
  expect(text).not.toContain("functions.html");
});

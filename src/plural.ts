/** A count with its noun in the right number: `counted(1, "company", "companies")` is "1 company". */
const RULES = new Intl.PluralRules("en-US");

export function counted(n: number, singular: string, plural = `${singular}s`): string {
  return `${n} ${RULES.select(n) === "one" ? singular : plural}`;
}

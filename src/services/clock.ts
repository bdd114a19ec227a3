/** Times as the contract writes them: RFC 3339 UTC to the second (`2026-11-25T21:49:11Z`). */
export function isoNow(date: Date = new Date()): string {
  return `${date.toISOString().slice(0, 19)}Z`;
}

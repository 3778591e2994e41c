/** Text placed in a markdown table cell: a `|` would end the cell. */
export function escapeCell(text: string): string {
  return text.replaceAll('|', '\\|');
}

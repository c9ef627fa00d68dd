/** One line of the report: a measurement, and the target it is held to when it has one. */
export interface Row {
  measure: string;
  result: string;
  /** Shown as written, e.g. "< 250 ms over node -e 0". */
  target?: string;
  /** Undefined for report-only rows. */
  passed?: boolean;
}

export interface Section {
  title: string;
  rows: Row[];
  /** Lines printed under the section: what the numbers include, why a target is what it is. */
  notes?: string[];
}

const HEADINGS = ['Measure', 'Result', 'Target', ''] as const;

/** Prints the sections as one aligned table. Labels must be free of wide (CJK) characters. */
export function formatReport(sections: readonly Section[]): string {
  const cells = (row: Row): string[] => [
    `  ${row.measure}`,
    row.result,
    row.target ?? '',
    row.passed === undefined ? '' : row.passed ? 'ok' : 'MISSED',
  ];
  const allRows = sections.flatMap((section) => section.rows.map(cells));
  const widths = HEADINGS.map((heading, column) =>
    Math.max(heading.length, ...allRows.map((row) => (row[column] ?? '').length)),
  );
  const line = (row: readonly string[]) =>
    row.map((cell, column) => cell.padEnd(widths[column] ?? 0)).join('  ').trimEnd();
  const rule = '-'.repeat(widths.reduce((total, width) => total + width, 0) + 2 * (widths.length - 1));
  const output = [line(HEADINGS), rule];
  for (const section of sections) {
    output.push(section.title);
    for (const row of section.rows) output.push(line(cells(row)));
    for (const note of section.notes ?? []) output.push(`    · ${note}`);
    output.push('');
  }
  return output.join('\n');
}

/** Rows whose target was missed, in report order. */
export function missedTargets(sections: readonly Section[]): { section: string; row: Row }[] {
  return sections.flatMap((section) =>
    section.rows.filter((row) => row.passed === false).map((row) => ({ section: section.title, row })),
  );
}

import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { HELP } from '../../src/config/flags.ts';
import { SETTING_OPTIONS, STRUCTURED_KEYS } from '../../src/config/settings/setting-options.ts';
import { SLASH_COMMANDS } from '../../src/ui/commands/slash-commands.ts';

// Every flag `sylvan --help` prints, every settings key and every slash command is documented under
// docs/, and each option exactly once: one row of the configuration page's tables names it, and
// every other page links there.

const docsFolder = fileURLToPath(new URL('../../docs/', import.meta.url));
const read = (name: string): string => readFileSync(join(docsFolder, name), 'utf8');
const allDocs = readdirSync(docsFolder)
  .filter((name) => name.endsWith('.md'))
  .map(read)
  .join('\n');

/** `--max-steps`, `-m`: a dash word not inside another word. */
const FLAG = /(?<![\w-])--?[a-z][a-z-]*/g;

/** The flags of `sylvan --help`: the dash words of its option lines. */
function helpFlags(): string[] {
  const lines = HELP.split('\n').filter((line) => /^\s+-/.test(line));
  return [...new Set(lines.flatMap((line) => line.match(FLAG) ?? []))];
}

/** The cells of column `heading` in every table of `markdown` that has one. */
function column(markdown: string, heading: string): string[] {
  const cells: string[] = [];
  let index = -1;
  for (const line of markdown.split('\n')) {
    if (!line.startsWith('|')) {
      index = -1;
      continue;
    }
    const row = line
      .replace(/\\\|/g, '\u0000')
      .split('|')
      .slice(1, -1)
      .map((cell) => cell.trim().replace(/\u0000/g, '|'));
    if (index === -1) {
      index = row.indexOf(heading);
      if (index === -1) index = -2;
      continue;
    }
    if (index >= 0 && !/^-+$/.test(row[index] ?? '')) cells.push(row[index] ?? '');
  }
  return cells;
}

/** The `code` spans of a cell, each cut at its first space (`--model NAME` → `--model`). */
const codeWords = (cell: string): string[] => [...cell.matchAll(/`([^`]+)`/g)].map((match) => (match[1] ?? '').split(/[\s=]/)[0] ?? '');

/** How many cells name `word` among their code spans. */
const rowsNaming = (cells: string[], word: string): number => cells.filter((cell) => codeWords(cell).includes(word)).length;

describe('the docs cover every option and command', () => {
  const configuration = read('configuration.md');

  test('each flag of sylvan --help has one row of the configuration page', () => {
    const flags = helpFlags();
    assert.ok(flags.length >= 20, `--help lists its flags: ${flags.join(' ')}`);
    const cells = column(configuration, 'Flag');
    for (const flag of flags) assert.equal(rowsNaming(cells, flag), 1, `docs/configuration.md: ${flag} in exactly one Flag cell`);
  });

  test('each settings key has one row of the configuration page, with its environment variable', () => {
    const keys = column(configuration, 'Settings key');
    const variables = column(configuration, 'Environment');
    for (const [key, option] of Object.entries(SETTING_OPTIONS)) {
      assert.equal(rowsNaming(keys, key), 1, `docs/configuration.md: settings key ${key} in exactly one row`);
      assert.equal(rowsNaming(variables, option.variable), 1, `docs/configuration.md: ${option.variable} in exactly one row`);
    }
    for (const key of STRUCTURED_KEYS) {
      assert.match(configuration, new RegExp(`\`${key.replace('$', '\\$')}[.\`]`), `docs/configuration.md names the settings key ${key}`);
    }
  });

  test('each slash command has one row of the commands page', () => {
    const commands = column(read('commands.md'), 'Command');
    assert.ok(SLASH_COMMANDS.length >= 20);
    for (const name of SLASH_COMMANDS) assert.equal(rowsNaming(commands, name), 1, `docs/commands.md: ${name} in exactly one row`);
  });

  test('every environment variable --help names is documented', () => {
    for (const variable of new Set(HELP.match(/\b(?:SYLVAN|DASHSCOPE|OPENAI)_[A-Z_]+/g) ?? [])) {
      assert.ok(allDocs.includes(variable), `docs/ names ${variable}`);
    }
  });
});

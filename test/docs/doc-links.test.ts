import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

// Every relative link in README.md, CONTRIBUTING.md and docs/ leads to a file that exists and, when
// it names a heading (`page.md#heading`), to a heading that page has: a newcomer following a link
// from the README never lands on nothing.

const projectRoot = fileURLToPath(new URL('../..', import.meta.url));
const pages = [
  join(projectRoot, 'README.md'),
  join(projectRoot, 'CONTRIBUTING.md'),
  ...readdirSync(join(projectRoot, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => join(projectRoot, 'docs', name)),
];

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens. */
const anchorOf = (heading: string): string =>
  heading
    .trim()
    .toLowerCase()
    .replace(/`/g, '')
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');

/** The anchors of a page's headings (outside code blocks). */
function anchors(markdown: string): Set<string> {
  const found = new Set<string>();
  let fenced = false;
  for (const line of markdown.split('\n')) {
    if (line.startsWith('```')) fenced = !fenced;
    const heading = !fenced && /^#{1,6}\s+(.*)$/.exec(line);
    if (heading) found.add(anchorOf(heading[1] ?? ''));
  }
  return found;
}

/** The relative links of a page, outside code blocks and code spans. */
function links(markdown: string): string[] {
  const prose = markdown.replace(/```[\s\S]*?```/g, '').replace(/`[^`\n]*`/g, '');
  return [...prose.matchAll(/\]\(([^)\s]+)\)/g)].map((match) => match[1] ?? '').filter((target) => !/^[a-z]+:/.test(target));
}

test('every relative link in the README and docs/ reaches a page and a heading that exist', () => {
  const problems: string[] = [];
  let checked = 0;
  for (const page of pages) {
    for (const link of links(readFileSync(page, 'utf8'))) {
      checked++;
      const [path = '', anchor] = link.split('#');
      const target = path === '' ? page : join(dirname(page), path);
      const where = `${relative(projectRoot, page)}: ${link}`;
      if (!existsSync(target)) problems.push(`${where} (no such file)`);
      else if (anchor !== undefined && target.endsWith('.md') && !anchors(readFileSync(target, 'utf8')).has(anchor)) problems.push(`${where} (no such heading)`);
    }
  }
  assert.ok(checked > 50, `the pages have links: ${checked}`);
  assert.deepEqual(problems, []);
});

test('every file of the repository the README and docs/ name by its path exists', () => {
  const missing: string[] = [];
  let checked = 0;
  for (const page of pages) {
    const named = readFileSync(page, 'utf8').matchAll(/`((?:src|test|bin|scripts|bench)\/[\w./-]+)`/g);
    for (const [, path = ''] of named) {
      checked++;
      if (!existsSync(join(projectRoot, path))) missing.push(`${relative(projectRoot, page)}: ${path}`);
    }
  }
  assert.ok(checked > 50, `the pages name files: ${checked}`);
  assert.deepEqual(missing, []);
});

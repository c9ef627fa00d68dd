import type { RuntimeMcp } from '../../mcp/runtime-mcp.ts';

/** `@server:uri` in what the user typed, for a configured server. */
export interface ResourceMention {
  server: string;
  uri: string;
  /** The word as typed after `@`, so the file attacher can leave it alone. */
  word: string;
}

/** The `@server:uri` words of `line` whose server is one of `servers` (trailing punctuation is not part of the URI). */
export function resourceMentions(line: string, servers: readonly string[]): ResourceMention[] {
  const mentions: ResourceMention[] = [];
  for (const match of line.matchAll(/(?:^|\s)@([^\s:/]+):(\S+)/g)) {
    const [, server = '', rest = ''] = match;
    const uri = rest.replace(/[,.;:!?)]+$/, '');
    if (!servers.includes(server) || uri === '' || mentions.some((other) => other.server === server && other.uri === uri)) continue;
    mentions.push({ server, uri, word: `${server}:${rest}` });
  }
  return mentions;
}

export interface AttachedResources {
  /** What to append to the message: each resource's text in a `<resource>` block. */
  blocks: string;
  /** One line per resource not attached, or attached without its binary parts (raw: sanitise before showing). */
  problems: string[];
  /** `server:uri` of each resource attached. */
  attached: string[];
}

const attribute = (value: string) => value.replace(/"/g, '%22');

/**
 * Reads each `@server:uri` of the line (`resources/read`, waiting bounded for a server still
 * starting) and puts its text after the message, bounded like a tool result (8,000 characters).
 * Binary parts are named, not attached; a resource that cannot be read gets a problem line, and the
 * message is sent either way. Never throws.
 */
export async function attachResources(mentions: readonly ResourceMention[], mcp: RuntimeMcp, waitMs: number, signal?: AbortSignal): Promise<AttachedResources> {
  const result: AttachedResources = { blocks: '', problems: [], attached: [] };
  if (mentions.some((mention) => mcp.summaries().find((summary) => summary.name === mention.server)?.status === 'starting')) {
    await mcp.settled(waitMs);
  }
  for (const { server, uri } of mentions) {
    try {
      const read = await mcp.readResource(server, uri, signal);
      for (const part of read.skipped) result.problems.push(`@${server}:${uri}: ${part} not attached: only text is`);
      if (read.text === '') {
        if (read.skipped.length === 0) result.problems.push(`@${server}:${uri} not attached: it is empty`);
        continue;
      }
      result.blocks += `\n\n<resource server="${attribute(server)}" uri="${attribute(uri)}">\n${read.text}\n</resource>`;
      result.attached.push(`${server}:${uri}`);
    } catch (error) {
      result.problems.push(`@${server}:${uri} not attached: ${(error as Error).message}`);
    }
  }
  return result;
}

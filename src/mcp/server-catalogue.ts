import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { boundPromptList, MAX_PROMPTS, type McpPrompt } from './prompt-list.ts';
import { boundResourceList, MAX_RESOURCE_PAGES, MAX_RESOURCES, type McpResource } from './resource-list.ts';

const firstLine = (error: unknown): string => (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? '';

/**
 * A ready server's prompts and resources, listed once it is ready and again when it says its list
 * changed, bounded (`prompt-list.ts`, `resource-list.ts`). A server that does not offer prompts or
 * resources has none, quietly; one whose listing fails has none either, with the reason kept for `/mcp`.
 */
export class ServerCatalogue {
  prompts: McpPrompt[] = [];
  resources: McpResource[] = [];
  /** The server declared the capability in its handshake. */
  offersPrompts = false;
  offersResources = false;
  /** How many the server listed, when more than were kept. */
  listedPromptCount: number | undefined;
  listedResourceCount: number | undefined;
  /** Why a list could not be had, one line each (raw: sanitise before showing). */
  problems: { prompts?: string; resources?: string } = {};
  /** The lists were asked for since the server became ready (and came, or failed): until then, none is known. */
  listed = false;

  /** Lists what the server's capabilities offer; never throws. */
  async load(client: Client, timeoutMs: number): Promise<void> {
    const capabilities = client.getServerCapabilities() ?? {};
    this.offersPrompts = capabilities.prompts !== undefined;
    this.offersResources = capabilities.resources !== undefined;
    await Promise.all([this.offersPrompts && this.loadPrompts(client, timeoutMs), this.offersResources && this.loadResources(client, timeoutMs)]);
    this.listed = true;
  }

  async loadPrompts(client: Client, timeoutMs: number): Promise<void> {
    try {
      const listed = await pages(MAX_PROMPTS, (cursor) =>
        client.listPrompts(cursor === undefined ? undefined : { cursor }, { timeout: timeoutMs }).then((page) => ({ items: page.prompts, next: page.nextCursor })),
      );
      const bounded = boundPromptList(listed.items);
      this.prompts = bounded.kept;
      this.listedPromptCount = bounded.kept.length < bounded.listedCount || listed.more ? bounded.listedCount : undefined;
      this.problems.prompts = undefined;
    } catch (error) {
      this.prompts = [];
      this.problems.prompts = `prompts/list failed: ${firstLine(error)}`;
    }
  }

  async loadResources(client: Client, timeoutMs: number): Promise<void> {
    try {
      const listed = await pages(MAX_RESOURCES, (cursor) =>
        client.listResources(cursor === undefined ? undefined : { cursor }, { timeout: timeoutMs }).then((page) => ({ items: page.resources, next: page.nextCursor })),
      );
      const bounded = boundResourceList(listed.items);
      this.resources = bounded.kept;
      this.listedResourceCount = bounded.kept.length < bounded.listedCount || listed.more ? bounded.listedCount : undefined;
      this.problems.resources = undefined;
    } catch (error) {
      this.resources = [];
      this.problems.resources = `resources/list failed: ${firstLine(error)}`;
    }
  }

  clear(): void {
    this.prompts = [];
    this.resources = [];
    this.listed = false;
  }
}

/** Follows `nextCursor` until `enough` items or `MAX_RESOURCE_PAGES` pages; `more` says the server had further pages. */
async function pages<T>(enough: number, page: (cursor: string | undefined) => Promise<{ items: T[]; next?: string }>): Promise<{ items: T[]; more: boolean }> {
  const items: T[] = [];
  let cursor: string | undefined;
  for (let count = 0; count < MAX_RESOURCE_PAGES; count++) {
    const next = await page(cursor);
    items.push(...next.items);
    cursor = next.next;
    if (!cursor) return { items, more: false };
    if (items.length >= enough) break;
  }
  return { items, more: true };
}

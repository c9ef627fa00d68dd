import type { LanguageModelV4StreamPart } from '@ai-sdk/provider';
import type { EmitPart, PartFilter } from './part-filters.ts';
import { partialTagAt } from './partial-tag.ts';

const OPEN = '<think>';
const CLOSE = '</think>';
/** Between two pieces of one kind that a switch to the other kind separated (as the SDK's own extraction joins them). */
const SEPARATOR = '\n';

type TextStart = Extract<LanguageModelV4StreamPart, { type: 'text-start' }>;

/** One text block's reading: inside `<think>` or not, and what is held back until the next chunk. */
interface TextBlock {
  thinking: boolean;
  /** Text not yet passed on: the end of the last chunk when it could be the start of a tag. */
  held: string;
  /** The block's text-start, passed on with its first answer text (a block that was only thinking has none until its end). */
  start: TextStart | undefined;
  /** The reasoning block being written, once its start has gone out. */
  reasoningId: string | undefined;
  switched: boolean;
  wroteText: boolean;
  wroteReasoning: boolean;
}

/**
 * `<think>…</think>` in the answer's text (vLLM or llama.cpp without a reasoning parser) becomes
 * reasoning. A tag split across chunks is found: the end of a chunk that could start one is held
 * until the next.
 */
export function thinkTagsFilter(): PartFilter {
  const blocks = new Map<string, TextBlock>();
  let reasoningCount = 0;

  const publish = (block: TextBlock, id: string, text: string, emit: EmitPart) => {
    if (text === '') return;
    const separated = block.switched && (block.thinking ? block.wroteReasoning : block.wroteText) ? SEPARATOR : '';
    block.switched = false;
    if (block.thinking) {
      if (block.reasoningId === undefined) {
        block.reasoningId = `reasoning-${reasoningCount++}`;
        emit({ type: 'reasoning-start', id: block.reasoningId });
      }
      emit({ type: 'reasoning-delta', id: block.reasoningId, delta: separated + text });
      block.wroteReasoning = true;
      return;
    }
    passStart(block, emit);
    emit({ type: 'text-delta', id, delta: separated + text });
    block.wroteText = true;
  };
  const passStart = (block: TextBlock, emit: EmitPart) => {
    if (block.start) emit(block.start);
    block.start = undefined;
  };
  /** Ends the reasoning block being written; an empty one (`<think></think>`) still starts and ends. */
  const endReasoning = (block: TextBlock, emit: EmitPart) => {
    if (block.reasoningId === undefined) {
      block.reasoningId = `reasoning-${reasoningCount++}`;
      emit({ type: 'reasoning-start', id: block.reasoningId });
    }
    emit({ type: 'reasoning-end', id: block.reasoningId });
    block.reasoningId = undefined;
  };
  const blockOf = (id: string): TextBlock => {
    let block = blocks.get(id);
    if (!block) {
      block = { thinking: false, held: '', start: undefined, reasoningId: undefined, switched: false, wroteText: false, wroteReasoning: false };
      blocks.set(id, block);
    }
    return block;
  };

  return {
    transform(part, emit) {
      if (part.type === 'text-start') {
        blockOf(part.id).start = part;
        return;
      }
      if (part.type === 'text-end') {
        const block = blockOf(part.id);
        publish(block, part.id, block.held, emit);
        block.held = '';
        if (block.reasoningId !== undefined) endReasoning(block, emit);
        passStart(block, emit);
        blocks.delete(part.id);
        emit(part);
        return;
      }
      if (part.type !== 'text-delta') {
        emit(part);
        return;
      }
      const block = blockOf(part.id);
      let text = block.held + part.delta;
      while (true) {
        const tag = block.thinking ? CLOSE : OPEN;
        const at = text.indexOf(tag);
        if (at < 0) {
          const keep = partialTagAt(text, tag);
          publish(block, part.id, text.slice(0, text.length - keep), emit);
          block.held = text.slice(text.length - keep);
          return;
        }
        publish(block, part.id, text.slice(0, at), emit);
        text = text.slice(at + tag.length);
        if (block.thinking) endReasoning(block, emit);
        block.thinking = !block.thinking;
        block.switched = true;
      }
    },
    flush(emit) {
      // A text block the stream never ended: what is held goes out as it stands.
      for (const [id, block] of blocks) {
        publish(block, id, block.held, emit);
        if (block.reasoningId !== undefined) endReasoning(block, emit);
      }
      blocks.clear();
    },
  };
}

/** The reader's contract, under the name the rest of the UI imports it by; the terminal's reader is `editor/terminal-reader.ts`. */
export type { ChoiceResult, LineReader, PickItem, PickRequest, ReadOptions, ReadResult, TypeAhead } from './line-reader-contract.ts';

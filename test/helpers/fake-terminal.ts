import { EventEmitter } from 'node:events';

/** A terminal's input end, as the line editor uses it: raw mode is recorded, keys are emitted as `data`. */
export class FakeInput extends EventEmitter {
  readonly isTTY = true;
  raw = false;
  setRawMode(mode: boolean) {
    this.raw = mode;
    return this;
  }
  setEncoding() {
    return this;
  }
  resume() {
    return this;
  }
  pause() {
    return this;
  }
}

/** A terminal's output end: everything written is kept in `written`. */
export class FakeOutput extends EventEmitter {
  readonly isTTY = true;
  columns = 80;
  written = '';
  write(text: string) {
    this.written += text;
    return true;
  }
}

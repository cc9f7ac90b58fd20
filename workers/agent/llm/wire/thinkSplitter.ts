/**
 * Separates inline reasoning from the answer in streamed `content`. Reasoning models served
 * without a reasoning parser (Ollama, llama.cpp, vLLM running qwen3, deepseek-r1 distills, QwQ)
 * write `<think>…</think>` (some `<thinking>…</thinking>`) at the start of the content; some
 * templates open the block in the prompt, so the content starts inside it and only `</think>`
 * arrives. Tags may be split across chunks, so text that could still become a tag is held back
 * until the next chunk decides it.
 */

const OPEN = ['<think>', '<thinking>'] as const;
const CLOSE = ['</think>', '</thinking>'] as const;

export interface SplitPiece {
  reasoning: string;
  content: string;
}

type Phase = 'start' | 'thinking' | 'answer';

/** True when `text` is a proper prefix of one of `tags` (it may still grow into it). */
function couldBecome(text: string, tags: readonly string[]): boolean {
  return tags.some((t) => t.length > text.length && t.startsWith(text));
}

/** The longest suffix of `text` that could be the start of one of `tags`. */
function heldSuffix(text: string, tags: readonly string[]): number {
  const max = Math.min(text.length, Math.max(...tags.map((t) => t.length)) - 1);
  for (let n = max; n > 0; n--) {
    if (couldBecome(text.slice(text.length - n), tags)) return n;
  }
  return 0;
}

export class ThinkSplitter {
  #phase: Phase = 'start';
  #pending = '';
  /** After a think block, whitespace before the answer's first character is dropped. */
  #trimAnswerStart = false;
  /** Whether any inline reasoning was seen (for the capability check's "inline tags"). */
  sawTags = false;

  /** Feeds one chunk of content; returns what can be released now. */
  push(chunk: string): SplitPiece {
    this.#pending += chunk;
    const out: SplitPiece = { reasoning: '', content: '' };
    for (;;) {
      if (this.#phase === 'start') {
        const trimmed = this.#pending.replace(/^\s+/, '');
        if (!trimmed) return out;
        const open = OPEN.find((t) => trimmed.startsWith(t));
        if (open) {
          this.sawTags = true;
          this.#pending = trimmed.slice(open.length);
          this.#phase = 'thinking';
          continue;
        }
        if (couldBecome(trimmed, OPEN)) return out;
        // A closing tag before any opening one: the template opened the block in the prompt.
        const closeAt = Math.min(...CLOSE.map((t) => {
          const i = this.#pending.indexOf(t);
          return i < 0 ? Infinity : i;
        }));
        if (closeAt !== Infinity) {
          this.sawTags = true;
          this.#phase = 'thinking';
          continue;
        }
        // Undecided only while a closing tag could still be forming at the end: otherwise answer.
        this.#phase = 'answer';
        continue;
      }
      if (this.#phase === 'thinking') {
        let at = -1;
        let tag = '';
        for (const t of CLOSE) {
          const i = this.#pending.indexOf(t);
          if (i >= 0 && (at < 0 || i < at)) {
            at = i;
            tag = t;
          }
        }
        if (at >= 0) {
          out.reasoning += this.#pending.slice(0, at);
          this.#pending = this.#pending.slice(at + tag.length);
          this.#trimAnswerStart = true;
          this.#phase = 'answer';
          continue;
        }
        const hold = heldSuffix(this.#pending, CLOSE);
        out.reasoning += this.#pending.slice(0, this.#pending.length - hold);
        this.#pending = this.#pending.slice(this.#pending.length - hold);
        return out;
      }
      if (this.#trimAnswerStart) {
        this.#pending = this.#pending.replace(/^\s+/, '');
        if (this.#pending) this.#trimAnswerStart = false;
      }
      out.content += this.#pending;
      this.#pending = '';
      return out;
    }
  }

  /** The stream ended: releases whatever was held back. */
  end(): SplitPiece {
    const rest = this.#pending;
    this.#pending = '';
    if (this.#phase === 'thinking') return { reasoning: rest, content: '' };
    return { reasoning: '', content: rest };
  }
}

/** Splits a whole (non-streamed) content string. */
export function splitThink(content: string): SplitPiece & { sawTags: boolean } {
  const s = new ThinkSplitter();
  const a = s.push(content);
  const b = s.end();
  return { reasoning: a.reasoning + b.reasoning, content: a.content + b.content, sawTags: s.sawTags };
}

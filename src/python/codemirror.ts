/**
 * The CodeMirror 6 Python editor. Imported lazily by PythonEditor.svelte so CodeMirror stays out
 * of the app shell; until it arrives (or if it fails) a plain textarea does the job.
 */
import { EditorView, drawSelection, highlightActiveLine, highlightActiveLineGutter, keymap, lineNumbers, placeholder } from '@codemirror/view';
import { EditorState, Prec } from '@codemirror/state';
import { HighlightStyle, bracketMatching, indentOnInput, indentUnit, syntaxHighlighting } from '@codemirror/language';
import { closeBrackets, closeBracketsKeymap } from '@codemirror/autocomplete';
import { defaultKeymap, history, historyKeymap, indentWithTab } from '@codemirror/commands';
import { python } from '@codemirror/lang-python';
import { tags } from '@lezer/highlight';

export interface PythonEditorHandle {
  setDoc(text: string): void;
  focus(): void;
  destroy(): void;
}

export interface PythonEditorOptions {
  doc: string;
  label: string;
  onChange: (text: string) => void;
  onRun: () => void;
}

// Colours come from CSS variables so the editor follows the light/dark theme.
const highlight = HighlightStyle.define([
  { tag: [tags.keyword, tags.controlKeyword, tags.definitionKeyword, tags.moduleKeyword], color: 'var(--syn-keyword)', fontWeight: '600' },
  { tag: [tags.string, tags.special(tags.string)], color: 'var(--syn-string)' },
  { tag: [tags.number, tags.bool, tags.null], color: 'var(--syn-number)' },
  { tag: tags.comment, color: 'var(--muted)', fontStyle: 'italic' },
  { tag: [tags.function(tags.definition(tags.variableName)), tags.className], color: 'var(--syn-type)' },
  { tag: tags.operator, color: 'var(--syn-operator)' },
]);

const theme = EditorView.theme({
  '&': { backgroundColor: 'var(--bg)', color: 'var(--fg)', fontSize: '0.9rem' },
  '.cm-content': { fontFamily: 'var(--mono)', caretColor: 'var(--fg)' },
  '.cm-gutters': { backgroundColor: 'var(--surface)', color: 'var(--muted)', borderRight: '1px solid var(--border)' },
  '.cm-activeLine, .cm-activeLineGutter': { backgroundColor: 'var(--stripe)' },
  '&.cm-focused': { outline: 'none' },
  '.cm-scroller': { minHeight: '9rem', maxHeight: '24rem' },
  '&.cm-focused .cm-selectionBackground, .cm-selectionBackground': { backgroundColor: 'var(--selection)' },
});

export function createPythonEditor(parent: HTMLElement, options: PythonEditorOptions): PythonEditorHandle {
  const view = new EditorView({
    parent,
    doc: options.doc,
    extensions: [
      Prec.highest(keymap.of([{ key: 'Mod-Enter', run: () => (options.onRun(), true) }])),
      lineNumbers(),
      highlightActiveLineGutter(),
      highlightActiveLine(),
      drawSelection(),
      history(),
      indentOnInput(),
      bracketMatching(),
      closeBrackets(),
      indentUnit.of('    '),
      EditorState.tabSize.of(4),
      placeholder('result = sum(range(10))'),
      // Tab indents; Escape then Tab leaves the editor (CodeMirror's tab-focus escape hatch).
      keymap.of([...closeBracketsKeymap, ...defaultKeymap, ...historyKeymap, indentWithTab]),
      python(),
      syntaxHighlighting(highlight),
      theme,
      EditorView.contentAttributes.of({ 'aria-label': options.label }),
      EditorView.updateListener.of((u) => {
        if (u.docChanged) options.onChange(u.state.doc.toString());
      }),
    ],
  });
  return {
    setDoc(text) {
      if (view.state.doc.toString() === text) return;
      view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text }, selection: { anchor: text.length } });
    },
    focus: () => view.focus(),
    destroy: () => view.destroy(),
  };
}

/**
 * The CodeMirror 6 SQL editor. Imported lazily by SqlEditor.svelte so CodeMirror stays out of the
 * app shell; until it arrives (or if it fails) a plain textarea does the job.
 */
// The `codemirror` package in node_modules is CodeMirror 5 republished, so the editor is
// assembled from the @codemirror/* packages directly.
import { EditorView, drawSelection, highlightActiveLine, highlightActiveLineGutter, keymap, lineNumbers, placeholder } from '@codemirror/view';
import { Compartment, EditorState, Prec } from '@codemirror/state';
import { HighlightStyle, bracketMatching, indentOnInput, syntaxHighlighting } from '@codemirror/language';
import { autocompletion, closeBrackets, closeBracketsKeymap, completionKeymap } from '@codemirror/autocomplete';
import { defaultKeymap, history, historyKeymap, indentWithTab } from '@codemirror/commands';
import { PostgreSQL, sql, type SQLNamespace } from '@codemirror/lang-sql';
import { tags } from '@lezer/highlight';

export interface SqlEditorHandle {
  setDoc(text: string): void;
  setSchema(schema: SQLNamespace): void;
  focus(): void;
  destroy(): void;
}

export interface SqlEditorOptions {
  doc: string;
  label: string;
  schema: SQLNamespace;
  onChange: (text: string) => void;
  onRun: () => void;
}

// Colours come from CSS variables so the editor follows the light/dark theme.
const highlight = HighlightStyle.define([
  { tag: tags.keyword, color: 'var(--syn-keyword)', fontWeight: '600' },
  { tag: [tags.string, tags.special(tags.string)], color: 'var(--syn-string)' },
  { tag: [tags.number, tags.bool, tags.null], color: 'var(--syn-number)' },
  { tag: [tags.lineComment, tags.blockComment], color: 'var(--muted)', fontStyle: 'italic' },
  { tag: [tags.typeName, tags.standard(tags.name)], color: 'var(--syn-type)' },
  { tag: tags.operator, color: 'var(--syn-operator)' },
]);

const theme = EditorView.theme({
  '&': { backgroundColor: 'var(--bg)', color: 'var(--fg)', fontSize: '0.9rem' },
  '.cm-content': { fontFamily: 'var(--mono)', caretColor: 'var(--fg)' },
  '.cm-gutters': { backgroundColor: 'var(--surface)', color: 'var(--muted)', borderRight: '1px solid var(--border)' },
  '.cm-activeLine, .cm-activeLineGutter': { backgroundColor: 'var(--stripe)' },
  '&.cm-focused': { outline: 'none' },
  '.cm-scroller': { minHeight: '7rem', maxHeight: '18rem' },
  '.cm-tooltip': { backgroundColor: 'var(--surface)', color: 'var(--fg)', border: '1px solid var(--border)' },
  '.cm-tooltip-autocomplete ul li[aria-selected]': { backgroundColor: 'var(--accent)', color: 'var(--accent-fg)' },
  '&.cm-focused .cm-selectionBackground, .cm-selectionBackground': { backgroundColor: 'var(--selection)' },
});

export function createSqlEditor(parent: HTMLElement, options: SqlEditorOptions): SqlEditorHandle {
  const language = new Compartment();
  const sqlLang = (schema: SQLNamespace) => sql({ dialect: PostgreSQL, schema, upperCaseKeywords: true });
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
      autocompletion(),
      EditorState.tabSize.of(2),
      placeholder('SELECT * FROM …'),
      // Tab indents; Escape then Tab leaves the editor (CodeMirror's tab-focus escape hatch).
      keymap.of([...closeBracketsKeymap, ...defaultKeymap, ...historyKeymap, ...completionKeymap, indentWithTab]),
      language.of(sqlLang(options.schema)),
      syntaxHighlighting(highlight),
      theme,
      EditorView.lineWrapping,
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
    setSchema(schema) {
      view.dispatch({ effects: language.reconfigure(sqlLang(schema)) });
    },
    focus: () => view.focus(),
    destroy: () => view.destroy(),
  };
}

/**
 * The CodeMirror 6 code editor behind CodeEditor.svelte, imported lazily so CodeMirror stays out of
 * the app shell; until it arrives (or if it fails) a plain textarea does the job.
 */
// The `codemirror` package in node_modules is CodeMirror 5 republished, so the editor is
// assembled from the @codemirror/* packages directly.
import { EditorView, drawSelection, highlightActiveLine, highlightActiveLineGutter, keymap, lineNumbers, placeholder } from '@codemirror/view';
import { Compartment, EditorState, Prec, type Extension } from '@codemirror/state';
import { HighlightStyle, bracketMatching, indentOnInput, indentUnit, syntaxHighlighting } from '@codemirror/language';
import { autocompletion, closeBrackets, closeBracketsKeymap } from '@codemirror/autocomplete';
import { defaultKeymap, history, historyKeymap, indentWithTab } from '@codemirror/commands';
import { tags } from '@lezer/highlight';
import type { CodeLanguageSettings, SqlSchema } from './codeLanguages';
import type { Grammar } from './grammars';

export interface CodeEditorHandle {
  setDoc(text: string): void;
  /** Only the SQL grammar reads it; for others it is a no-op reconfiguration. */
  setSchema(schema: SqlSchema): void;
  focus(): void;
  destroy(): void;
}

export interface CodeEditorOptions {
  doc: string;
  label: string;
  grammar: Grammar;
  settings: CodeLanguageSettings;
  schema: SqlSchema;
  onChange: (text: string) => void;
  onRun: () => void;
}

// Colours come from CSS variables so the editor follows the light/dark theme.
const highlight = HighlightStyle.define([
  { tag: [tags.keyword, tags.controlKeyword, tags.definitionKeyword, tags.moduleKeyword], color: 'var(--syn-keyword)', fontWeight: '600' },
  { tag: [tags.string, tags.special(tags.string)], color: 'var(--syn-string)' },
  { tag: [tags.number, tags.bool, tags.null], color: 'var(--syn-number)' },
  { tag: tags.comment, color: 'var(--muted)', fontStyle: 'italic' },
  { tag: [tags.typeName, tags.standard(tags.name), tags.function(tags.definition(tags.variableName)), tags.className], color: 'var(--syn-type)' },
  { tag: tags.operator, color: 'var(--syn-operator)' },
]);

const theme = EditorView.theme({
  '&': { backgroundColor: 'var(--bg)', color: 'var(--fg)', fontSize: '0.9rem' },
  '.cm-content': { fontFamily: 'var(--mono)', caretColor: 'var(--fg)' },
  '.cm-gutters': { backgroundColor: 'var(--surface)', color: 'var(--muted)', borderRight: '1px solid var(--border)' },
  '.cm-activeLine, .cm-activeLineGutter': { backgroundColor: 'var(--stripe)' },
  '&.cm-focused': { outline: 'none' },
  // CodeMirror's own grey fails WCAG AA contrast on the active-line stripe.
  '.cm-placeholder': { color: 'var(--muted)' },
  '.cm-tooltip': { backgroundColor: 'var(--surface)', color: 'var(--fg)', border: '1px solid var(--border)' },
  '.cm-tooltip-autocomplete ul li[aria-selected]': { backgroundColor: 'var(--accent)', color: 'var(--accent-fg)' },
  '&.cm-focused .cm-selectionBackground, .cm-selectionBackground': { backgroundColor: 'var(--selection)' },
});

function languageExtensions(settings: CodeLanguageSettings): Extension[] {
  return [
    indentUnit.of(' '.repeat(settings.indent)),
    EditorState.tabSize.of(settings.indent),
    placeholder(settings.placeholder),
    EditorView.theme({ '.cm-scroller': { minHeight: settings.minHeight, maxHeight: settings.maxHeight } }),
    // autocompletion() brings its own highest-precedence keymap (Enter/arrows while the popup is open).
    settings.completion ? autocompletion() : [],
    settings.lineWrapping ? EditorView.lineWrapping : [],
  ];
}

export function createCodeEditor(parent: HTMLElement, options: CodeEditorOptions): CodeEditorHandle {
  const language = new Compartment();
  const initialGrammar = options.grammar({});
  const view = new EditorView({
    parent,
    doc: options.doc,
    extensions: [
      // Shift+Enter runs too, as in Jupyter and marimo.
      Prec.highest(keymap.of([{ key: 'Mod-Enter', run: () => (options.onRun(), true) }, { key: 'Shift-Enter', run: () => (options.onRun(), true) }])),
      lineNumbers(),
      highlightActiveLineGutter(),
      highlightActiveLine(),
      drawSelection(),
      history(),
      indentOnInput(),
      bracketMatching(),
      closeBrackets(),
      languageExtensions(options.settings),
      // Tab indents; Escape then Tab leaves the editor (CodeMirror's tab-focus escape hatch).
      keymap.of([...closeBracketsKeymap, ...defaultKeymap, ...historyKeymap, indentWithTab]),
      // The catalog's completion comes in `setSchema`'s own task (below), not in the editor's creation.
      language.of(initialGrammar),
      syntaxHighlighting(highlight),
      theme,
      EditorView.contentAttributes.of({ 'aria-label': options.label }),
      EditorView.updateListener.of((u) => {
        if (u.docChanged) options.onChange(u.state.doc.toString());
      }),
    ],
  });
  // The SQL grammar builds its completion from the whole catalog (quadratic in a table's columns in
  // lang-sql: ~150 ms for 2,000 on a busy machine). It runs in a task of its own, the last catalog
  // of a burst only, never inside the page update that changed the dataset list (issue 37).
  let applied: Extension = initialGrammar;
  let pendingSchema: SqlSchema | null = null;
  let schemaTimer: ReturnType<typeof setTimeout> | undefined;
  const setSchema = (schema: SqlSchema) => {
    pendingSchema = schema;
    schemaTimer ??= setTimeout(() => {
      schemaTimer = undefined;
      const next = pendingSchema;
      pendingSchema = null;
      const grammar = next && options.grammar(next);
      // The same catalog again gives back the same extension (src/ui/sqlCatalog.ts): nothing to do.
      if (grammar && grammar !== applied) view.dispatch({ effects: language.reconfigure((applied = grammar)) });
    }, 0);
  };
  setSchema(options.schema);
  return {
    setDoc(text) {
      if (view.state.doc.toString() === text) return;
      view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text }, selection: { anchor: text.length } });
    },
    setSchema,
    focus: () => view.focus(),
    destroy: () => {
      clearTimeout(schemaTimer);
      view.destroy();
    },
  };
}

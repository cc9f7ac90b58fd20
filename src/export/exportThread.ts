/**
 * The `Export` menu's work: build the chosen file from the open conversation and save it.
 * The HTML report's renderer and plotly.js load only when that export is asked for.
 */
import { buildMarkdownReport } from './markdownReport';
import { notebookJson } from './notebook';
import { outlineFigures, outlineTurn } from './outline';
import { buildExportThread, type ExportInput, type ExportThread } from './thread';
import { downloadText, fileName, MIME } from '../files/download';

import { EXPORT_LABEL, type ExportFormat } from './formats';
import { messageOf } from '../../shared/errors';

export { EXPORT_LABEL, type ExportFormat };

export type ExportOutcome = { ok: true; fileName: string } | { ok: false; message: string };

async function htmlReport(thread: ExportThread): Promise<string> {
  const [{ buildHtmlReport }, { answerHtml }, { drawFigures }] = await Promise.all([import('./htmlReport'), import('./answerHtml'), import('./chartImage')]);
  const figureImage = await drawFigures(outlineFigures(thread.turns.map(outlineTurn)));
  return buildHtmlReport(thread, { renderMarkdown: answerHtml, figureImage });
}

/** The file's text for a format (exposed for tests and for callers that save differently). */
export async function exportText(format: ExportFormat, thread: ExportThread): Promise<string> {
  switch (format) {
    case 'ipynb':
      return notebookJson(thread);
    case 'md':
      return buildMarkdownReport(thread);
    case 'html':
      return htmlReport(thread);
  }
}

const EXTENSION: Record<ExportFormat, keyof typeof MIME> = { ipynb: 'ipynb', html: 'html', md: 'md' };

export async function exportConversation(format: ExportFormat, input: ExportInput): Promise<ExportOutcome> {
  if (input.turns.length === 0) return { ok: false, message: 'There is nothing to export yet: ask a question first.' };
  try {
    const thread = buildExportThread(input);
    const text = await exportText(format, thread);
    const ext = EXTENSION[format];
    const name = fileName(thread.title, ext, 'conversation');
    downloadText(text, name, MIME[ext]);
    return { ok: true, fileName: name };
  } catch (e) {
    return { ok: false, message: `The ${EXPORT_LABEL[format]} could not be made: ${messageOf(e)}` };
  }
}

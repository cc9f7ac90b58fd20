/** The export formats and their menu labels: kept apart so the menu loads without the exporters. */
export type ExportFormat = 'ipynb' | 'html' | 'md';

export const EXPORT_LABEL: Record<ExportFormat, string> = {
  ipynb: 'Notebook (.ipynb)',
  html: 'HTML report',
  md: 'Markdown report',
};

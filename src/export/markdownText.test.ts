import { describe, expect, it } from 'vitest';
import { neutraliseHtml } from './markdownText';

describe('neutraliseHtml', () => {
  it('turns tags into text outside code and keeps code and comparisons as they are', () => {
    expect(neutraliseHtml('<b>hi</b> <img src=x onerror=alert(1)>')).toBe('&lt;b>hi&lt;/b> &lt;img src=x onerror=alert(1)>');
    expect(neutraliseHtml('a < b and `<tag>`\n```\n<script>\n```')).toBe('a < b and `<tag>`\n```\n<script>\n```');
    expect(neutraliseHtml('<!-- c --> <?php')).toBe('&lt;!-- c --> &lt;?php');
  });
});

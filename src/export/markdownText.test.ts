import { describe, expect, it } from 'vitest';
import { imagesToLinks, neutraliseHtml } from './markdownText';

describe('neutraliseHtml', () => {
  it('turns tags into text outside code and keeps code and comparisons as they are', () => {
    expect(neutraliseHtml('<b>hi</b> <img src=x onerror=alert(1)>')).toBe('&lt;b>hi&lt;/b> &lt;img src=x onerror=alert(1)>');
    expect(neutraliseHtml('a < b and `<tag>`\n```\n<script>\n```')).toBe('a < b and `<tag>`\n```\n<script>\n```');
    expect(neutraliseHtml('<!-- c --> <?php')).toBe('&lt;!-- c --> &lt;?php');
  });
});

describe('imagesToLinks', () => {
  it('turns remote images into links and keeps inline ones', () => {
    expect(imagesToLinks('See ![chart](http://127.0.0.1:9/x.png?d=rows "t") and ![](//evil/y.gif)')).toBe('See [chart](http://127.0.0.1:9/x.png?d=rows) and [image](//evil/y.gif)');
    expect(imagesToLinks('![ref][logo]')).toBe('[ref][logo]');
    expect(imagesToLinks('![dot](data:image/png;base64,AAAA)')).toBe('![dot](data:image/png;base64,AAAA)');
    expect(neutraliseHtml('`![code](http://x/)` ![a](http://x/)')).toBe('`![code](http://x/)` [a](http://x/)');
  });
});

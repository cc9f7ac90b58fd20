import { describe, expect, it } from 'vitest';
import { plotlyPlainText, plotlyText } from './plotlyText';

const HOST = 'http://127.0.0.1:9';

describe('plotlyText: the tags Plotly draws, rebuilt', () => {
  it('keeps the pseudo-HTML an ordinary title uses', () => {
    expect(plotlyText('Rain <b>and</b> sun<br><sup>2024</sup> <i>x</i><sub>2</sub> <em>e</em>')).toBe('Rain <b>and</b> sun<br><sup>2024</sup> <i>x</i><sub>2</sub> <em>e</em>');
    expect(plotlyText('<span style="color:red">red</span> and <span style="color: #00F; font-weight: bold">blue</span>')).toBe(
      '<span style="color:red">red</span> and <span style="color:#00f;font-weight:bold">blue</span>',
    );
    expect(plotlyText("<b style='font-size:14px'>big</b>")).toBe('<b style="font-size:14px">big</b>');
    expect(plotlyText('a<br />b')).toBe('a<br>b');
    expect(plotlyText('%{x}<br>%{y:.2f}<extra></extra>')).toBe('%{x}<br>%{y:.2f}<extra></extra>');
  });

  it('keeps < that can never open a tag', () => {
    expect(plotlyText('1 < 2 and 3 > 2')).toBe('1 < 2 and 3 > 2');
    expect(plotlyText('b < c')).toBe('b < c');
    expect(plotlyText('x<5')).toBe('x<5');
  });

  it('drops styles that load, escaped or not', () => {
    const attack = `<span style="cursor:u\\72l(${HOST}/c?d=ROWS),auto;background-image:u\\rl(${HOST}/b?d=ROWS)">x</span>`;
    expect(plotlyText(attack)).toBe('<span>x</span>');
    expect(plotlyText(`<b style="color:red;background:url(${HOST}/x)">t</b>`)).toBe('<b style="color:red">t</b>');
    // Plotly decodes entities in attribute values before writing the style.
    expect(plotlyText(`<span style="background:&#117;rl(${HOST}/x)">t</span>`)).toBe('<span>t</span>');
    expect(plotlyText(`<span style="background:u&#x5c;72l(${HOST}/x)">t</span>`)).toBe('<span>t</span>');
  });

  it('keeps a link as its text', () => {
    expect(plotlyText(`Sales <a href="${HOST}">here</a>`)).toBe('Sales here');
    expect(plotlyText(`<A HREF='${HOST}' target="_blank">x</A>`)).toBe('x');
  });

  it('shows other tags as the text Plotly shows', () => {
    expect(plotlyText(`<img src="${HOST}/x">`)).toBe(`&lt;img src="${HOST}/x">`);
    expect(plotlyText('<script>x</script>')).toBe('&lt;script>x&lt;/script>');
    expect(plotlyText('<b\tstyle="background:url(x)">t</b>')).toBe('&lt;b\tstyle="background:url(x)">t</b>');
  });

  it('leaves no < a template could join into a tag', () => {
    expect(plotlyText('<%{text}</a>')).toBe('&lt;%{text}');
    expect(plotlyText('a<')).toBe('a&lt;');
    expect(plotlyText('<%{x}>')).toBe('&lt;%{x}>');
    expect(plotlyText('span style="background:url(x)">')).toBe('span style="background:url(x)">');
    // d3-format pads with its fill character: `<<10` makes `5<<<<<<<<<` beside the text after it.
    expect(plotlyText("%{y:<<10}b style='cursor:url(x)'>t")).toBe("%{y:&lt;&lt;10}b style='cursor:url(x)'>t");
    expect(plotlyText('%{y:<^10}span>')).toBe('%{y:&lt;^10}span>');
  });

  it('is stable when applied twice', () => {
    for (const s of ['<span style="color: Red">x</span><br >y', '1 < 2', '<a href="x">t</a>', 'a<', '<b><i>x</i></b>']) {
      expect(plotlyText(plotlyText(s))).toBe(plotlyText(s));
    }
  });
});

describe('plotlyPlainText', () => {
  it('reads the words of a title', () => {
    expect(plotlyPlainText('<span style="color:red">Rain</span> <b>and</b> sun<br><sup>2024</sup> &amp; 1 < 2')).toBe('Rain and sun 2024 & 1 < 2');
    expect(plotlyPlainText('<a href="x">link</a> <foo>')).toBe('link <foo>');
  });
});

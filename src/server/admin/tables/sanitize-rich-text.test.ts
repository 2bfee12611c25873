import { describe, expect, it } from 'vitest';
import { sanitizeRichText } from './sanitize-rich-text';

const PNG =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGNgYGBgAAAABQABpfZFQAAAAABJRU5ErkJggg==';

describe('sanitizeRichText keeps what Quill 2 writes', () => {
  it.each([
    '<p>Plain <strong>bold</strong> <em>italic</em> <u>under</u> <s>struck</s> <code>x</code></p>',
    '<h1>One</h1><h2>Two</h2><h3>Three</h3><blockquote>Quoted</blockquote>',
    '<p class="ql-align-center ql-indent-3">Centred and indented</p><p class="ql-indent-8">deep</p>',
    '<ol><li data-list="ordered">first</li></ol><ul><li data-list="bullet">dot</li></ul>',
    '<ol><li data-list="checked"><span class="ql-ui"></span>done</li></ol>',
    '<pre data-language="plain">\nconst a = 1 &lt; 2;\n</pre><pre class="ql-syntax">x</pre>',
    '<div class="ql-code-block-container"><div class="ql-code-block" data-language="plain">x</div></div>',
    '<p><br /></p>',
    `<p><img src="${PNG}" alt="dot" width="10" /></p>`,
    '<p><img src="https://example.com/photo.jpg" /></p>',
    '<iframe src="https://www.youtube.com/embed/abc" class="ql-video" frameborder="0" allowfullscreen="true"></iframe>',
    '<p><a href="https://example.com/a?b=1&amp;c=2" target="_blank" rel="noopener noreferrer">link</a></p>',
    '<p><a href="mailto:owner@example.com" target="_blank" rel="noopener noreferrer">mail</a> <a href="tel:+15550100" target="_blank" rel="noopener noreferrer">call</a></p>',
  ])('%s', (html) => {
    expect(sanitizeRichText(html)).toBe(html);
  });

  it('keeps the no-break spaces Quill writes between words, as characters', () => {
    expect(sanitizeRichText('<p>a&nbsp;b</p>')).toBe('<p>a\u00a0b</p>');
  });

  it('makes every link open safely in a new tab', () => {
    expect(sanitizeRichText('<a href="https://example.com">x</a>')).toBe(
      '<a href="https://example.com" target="_blank" rel="noopener noreferrer">x</a>',
    );
  });
});

describe('sanitizeRichText removes what could run or load elsewhere', () => {
  const blankLink = '<a target="_blank" rel="noopener noreferrer">x</a>';

  it.each([
    ['<script>alert(1)</script><p>after</p>', '<p>after</p>'],
    ['<img src=x onerror=alert(1)>', '<img src="" />'],
    ['<img src="javascript:alert(1)">', '<img src="" />'],
    ['<img src="data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+">', '<img src="" />'],
    ['<img src="data:text/html;base64,PHNjcmlwdD4=">', '<img src="" />'],
    ['<img src="/relative.png">', '<img src="" />'],
    [
      '<img src="https://example.com/a.png" style="width:9999px">',
      '<img src="https://example.com/a.png" />',
    ],
    ['<a href="javascript:alert(1)">x</a>', blankLink],
    ['<a href="jav&#x09;ascript:alert(1)">x</a>', blankLink],
    ['<a href="jav\tascript:alert(1)">x</a>', blankLink],
    ['<a href="&#106;&#97;vascript:alert(1)">x</a>', blankLink],
    ['<a href="  JaVaScRiPt:alert(1)">x</a>', blankLink],
    ['<a href="vbscript:msgbox(1)">x</a>', blankLink],
    ['<a href="data:text/html,<script>alert(1)</script>">x</a>', blankLink],
    ['<a href="//evil.example/">x</a>', blankLink],
    [
      '<a href="https://example.com" onclick="steal()">x</a>',
      '<a href="https://example.com" target="_blank" rel="noopener noreferrer">x</a>',
    ],
    ['<svg onload=alert(1)><circle r="1"></circle></svg>', ''],
    [
      '<svg><a xlink:href="javascript:alert(1)"><text>t</text></a></svg>',
      '<a target="_blank" rel="noopener noreferrer">t</a>',
    ],
    ['<iframe src="javascript:alert(1)" class="ql-video"></iframe>', ''],
    ['<iframe src="https://evil.example/"></iframe>', ''],
    ['<iframe srcdoc="<script>alert(1)</script>" class="ql-video"></iframe>', ''],
    ['<p style="background:url(javascript:alert(1))" onmouseover="x()">s</p>', '<p>s</p>'],
    ['<p class="ql-indent-9 evil ql-align-center">c</p>', '<p class="ql-align-center">c</p>'],
    ['<li data-list="javascript:x">i</li>', '<li>i</li>'],
    ['<style>p { color: red }</style><p>t</p>', '<p>t</p>'],
    ['<object data="x.swf"></object><embed src="x.swf"><form action="x"><input></form>', ''],
    ['<scr<script>ipt>alert(1)</scr</script>ipt>', 'ipt&gt;alert(1)ipt&gt;'],
    ['<p><b>unclosed <i>nesting', '<p>unclosed nesting</p>'],
    ['<noscript><p title="</noscript><img src=x onerror=alert(1)>"></noscript>', '<p></p>'],
    ['<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>', ''],
    ['<p>1 < 2 & "quotes"</p>', '<p>1 &lt; 2 &amp; "quotes"</p>'],
  ])('%s', (html, clean) => {
    expect(sanitizeRichText(html)).toBe(clean);
  });
});

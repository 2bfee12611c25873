import { describe, expect, it } from 'vitest';
import { richTextToPlain } from './rich-text-to-plain';

describe('richTextToPlain on the server', () => {
  it('reads rich text as the browser export does: one line per block, entities decoded', () => {
    const notes =
      '<h2>Call&nbsp;back</h2><p>Prefers <strong>email</strong>.</p><ol><li>Refund</li><li>Guide</li></ol>' +
      '<p><img src="x" onerror="window.csvHacked = true">Done<br>today</p>';
    expect(richTextToPlain(notes)).toBe('Call back\nPrefers email.\nRefund\nGuide\nDone\ntoday');
    expect(
      richTextToPlain('<p>a &amp; b &lt;c&gt; "d" &#39;e&#39;</p><p><br></p><p><br></p><p>f</p>'),
    ).toBe('a & b <c> "d" \'e\'\n\nf');
    expect(richTextToPlain('')).toBe('');
  });
});

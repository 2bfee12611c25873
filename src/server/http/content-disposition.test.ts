import { describe, expect, it } from 'vitest';
import { attachment } from './content-disposition';

describe('attachment', () => {
  it('names the file twice: plain ASCII, and exactly in RFC 5987 form', () => {
    expect(attachment('Terms_of_Service_Feedback.csv')).toBe(
      `attachment; filename="Terms_of_Service_Feedback.csv"; filename*=UTF-8''Terms_of_Service_Feedback.csv`,
    );
    expect(attachment('Soul Reset Bundle.pdf')).toBe(
      `attachment; filename="Soul Reset Bundle.pdf"; filename*=UTF-8''Soul%20Reset%20Bundle.pdf`,
    );
  });

  it('keeps quotes, backslashes, control and non-ASCII characters out of the plain name', () => {
    expect(attachment('Café "best"\\.csv')).toBe(
      `attachment; filename="Caf_ _best__.csv"; filename*=UTF-8''Caf%C3%A9%20%22best%22%5C.csv`,
    );
    expect(attachment('a\r\nb.txt')).toBe(
      `attachment; filename="a__b.txt"; filename*=UTF-8''a%0D%0Ab.txt`,
    );
  });

  it('leaves the exact name out when asked, for names that are ASCII by construction', () => {
    expect(
      attachment('soul-reset-backup-2026-01-02T03-04-05Z.jsonl.gz', { exactName: false }),
    ).toBe('attachment; filename="soul-reset-backup-2026-01-02T03-04-05Z.jsonl.gz"');
  });
});

import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import Quill from 'quill';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { editorFormats, editorModules } from './quill-editor';
import { RichTextEditor } from './rich-text-editor';

function Harness({ initial }: { initial: string }) {
  const [html, setHtml] = useState(initial);
  return (
    <>
      <span id="notes-label">Notes</span>
      <RichTextEditor labelledBy="notes-label" defaultValue={initial} onChange={setHtml} />
      <pre data-testid="html">{html}</pre>
    </>
  );
}

/** The Quill instance behind the labelled editor. */
async function editorFor(name: string) {
  const root = await screen.findByRole('textbox', { name });
  return { root, quill: Quill.find(root.parentElement!) as Quill };
}

describe('rich-text editor (SPEC.md §2, §5)', () => {
  it('shows a loading state while its code loads, then a labelled snow editor', async () => {
    const { container } = render(<Harness initial="<p>Hello <strong>there</strong></p>" />);
    expect(screen.getByRole('status').textContent).toBe('Loading editor…');

    const { root } = await editorFor('Notes');
    expect(root.getAttribute('aria-multiline')).toBe('true');
    expect(root.innerHTML).toBe('<p>Hello <strong>there</strong></p>');
    expect(container.querySelector('.ql-toolbar.ql-snow')).not.toBeNull();
    expect(screen.getByRole('button', { name: 'Bold' })).toBeDefined();
    expect(screen.getByRole('button', { name: 'Increase indent' })).toBeDefined();
    expect(screen.queryByRole('status')).toBeNull();
  });

  it('reports HTML with plain spaces as the text changes, and nothing when emptied', async () => {
    render(<Harness initial="" />);
    const { quill } = await editorFor('Notes');
    quill.insertText(0, 'Call back soon', 'user');
    quill.formatText(0, 4, 'bold', true, 'user');
    await waitFor(() =>
      expect(screen.getByTestId('html').textContent).toBe('<p><strong>Call</strong> back soon</p>'),
    );
    quill.deleteText(0, quill.getLength(), 'user');
    await waitFor(() => expect(screen.getByTestId('html').textContent).toBe(''));
  });

  it('keeps undo history at 100 steps grouped over 1000 ms, user changes only', () => {
    expect(editorModules).toMatchObject({
      history: { delay: 1000, maxStack: 100, userOnly: true },
    });
    expect(editorFormats).toEqual(expect.arrayContaining(['image', 'link', 'indent']));
  });

  it('lets Tab leave the editor instead of typing a tab character', async () => {
    /** Presses Tab in an editor at the end of its text; true when the browser may move focus. */
    function pressTab(quill: Quill): boolean {
      // Silently and without scrolling: jsdom has no layout to scroll the selection into.
      quill.focus({ preventScroll: true });
      quill.setSelection(quill.getLength() - 1, 0, 'silent');
      return fireEvent.keyDown(quill.root, { key: 'Tab' });
    }

    // Quill's default, on a bare editor: Tab types a tab and keeps focus in the editor.
    const bare = document.createElement('div');
    document.body.append(bare);
    const plain = new Quill(bare);
    plain.setText('Hi');
    expect(pressTab(plain)).toBe(false);
    expect(plain.getText()).toBe('Hi\t\n');
    bare.remove();

    render(<Harness initial="<p>Hi</p>" />);
    const { quill } = await editorFor('Notes');
    expect(pressTab(quill)).toBe(true);
    expect(quill.getText()).toBe('Hi\n');
  });

  it("relies on Quill's formats for image, link and indent rules", async () => {
    render(<Harness initial="" />);
    const { quill } = await editorFor('Notes');
    quill.clipboard.dangerouslyPasteHTML(
      '<p><img src="javascript:alert(1)"><img src="https://example.com/a.png">' +
        '<img src="data:image/gif;base64,R0lGODlhAQABAAAAACw="><a href="javascript:alert(1)">x</a></p>' +
        '<p class="ql-indent-8">deep</p><p class="ql-indent-9">too deep</p>',
      'user',
    );
    const images = [...quill.root.querySelectorAll('img')].map((img) => img.getAttribute('src'));
    expect(images).toEqual([
      '//:0',
      'https://example.com/a.png',
      'data:image/gif;base64,R0lGODlhAQABAAAAACw=',
    ]);
    expect(quill.root.querySelector('a')?.getAttribute('href')).toBe('about:blank');
    const indents = [...quill.root.querySelectorAll('p')].map((p) => p.className);
    expect(indents.at(-2)).toBe('ql-indent-8');
    expect(indents.at(-1)).toBe('');

    const Image = Quill.import('formats/image') as { match(url: string): boolean };
    for (const url of ['a.jpg', 'a.jpeg', 'a.gif', 'a.png', 'data:image/webp;base64,AA']) {
      expect(Image.match(url), url).toBe(true);
    }
    expect(Image.match('a.svg')).toBe(false);
  });
});

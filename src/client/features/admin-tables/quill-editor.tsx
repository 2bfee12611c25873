import { useEffect, useRef } from 'react';
import type { QuillOptions } from 'quill';
import ReactQuill from 'react-quill-new';
import 'react-quill-new/dist/quill.snow.css';
import './quill-editor.css';

/**
 * SPEC.md §5 and §9. Quill's own formats already limit image sources to http, https and data
 * (others become a blank source), accept .jpg/.jpeg/.gif/.png and base64 images, sanitise
 * link URLs and allow indent levels 1 to 8.
 */
export const editorModules: QuillOptions['modules'] = {
  toolbar: [
    [{ header: 2 }, { header: 3 }],
    ['bold', 'italic', 'underline', 'strike'],
    [{ list: 'ordered' }, { list: 'bullet' }],
    [{ indent: '-1' }, { indent: '+1' }],
    ['link', 'image'],
    ['clean'],
  ],
  history: { delay: 1000, maxStack: 100, userOnly: true },
  keyboard: {
    // Tab leaves the editor, as in every other field, instead of typing a tab character.
    bindings: { tab: { key: 'Tab', handler: () => true } },
  },
};

export const editorFormats = [
  'header',
  'bold',
  'italic',
  'underline',
  'strike',
  'list',
  'indent',
  'link',
  'image',
];

// Quill names its buttons after formats ("list: ordered"); people read these instead.
const toolbarLabels: Record<string, string> = {
  'header: 2': 'Heading',
  'header: 3': 'Subheading',
  bold: 'Bold',
  italic: 'Italic',
  underline: 'Underline',
  strike: 'Strikethrough',
  'list: ordered': 'Numbered list',
  'list: bullet': 'Bulleted list',
  'indent: -1': 'Decrease indent',
  'indent: +1': 'Increase indent',
  link: 'Link',
  image: 'Image',
  clean: 'Clear formatting',
};

export type QuillEditorProps = {
  /** Id of the element that labels the editor. */
  labelledBy: string;
  defaultValue: string;
  /** The editor's HTML, or '' when it holds neither text nor an image. */
  onChange(html: string): void;
};

/** The snow-theme editor storing HTML; its code and CSS are a chunk of their own. */
export function QuillEditor({ labelledBy, defaultValue, onChange }: QuillEditorProps) {
  const quill = useRef<ReactQuill>(null);

  useEffect(() => {
    const editor = quill.current?.getEditor();
    if (!editor) return;
    editor.root.setAttribute('role', 'textbox');
    editor.root.setAttribute('aria-multiline', 'true');
    editor.root.setAttribute('aria-labelledby', labelledBy);
    const toolbar = editor.container.parentElement?.querySelector('.ql-toolbar');
    for (const button of toolbar?.querySelectorAll('button[aria-label]') ?? []) {
      const label = toolbarLabels[button.getAttribute('aria-label')!];
      if (label) button.setAttribute('aria-label', label);
    }
  }, [labelledBy]);

  return (
    <ReactQuill
      ref={quill}
      theme="snow"
      defaultValue={defaultValue}
      modules={editorModules}
      formats={editorFormats}
      onChange={(html, _delta, _source, editor) =>
        // Quill 2.0.3's semantic HTML turns every space into &nbsp;, which would stop the
        // stored text from wrapping anywhere else it is shown.
        onChange(editor.getLength() <= 1 ? '' : html.replaceAll('&nbsp;', ' '))
      }
    />
  );
}

import { createContext, useContext, type ReactNode } from 'react';

/** What the email body's editor takes: the admin's rich-text editor fits it. */
export type BodyEditorProps = {
  /** Id of the element that labels the editor. */
  labelledBy: string;
  defaultValue: string;
  /** The editor's HTML, or '' when it is empty. */
  onChange(html: string): void;
};

/** Plain HTML in a text area: the body editor when none is provided. */
function HtmlArea({ labelledBy, defaultValue, onChange }: BodyEditorProps) {
  return (
    <textarea
      aria-labelledby={labelledBy}
      defaultValue={defaultValue}
      rows={10}
      onChange={(event) => onChange(event.target.value)}
      className="mt-1.5 block w-full rounded-lg border border-sand-300 bg-white px-3.5 py-2.5 font-mono text-sm text-ink shadow-xs"
    />
  );
}

/** Renders the body's editor with these props. */
export type RenderBodyEditor = (props: BodyEditorProps) => ReactNode;

const BodyEditorContext = createContext<RenderBodyEditor>((props) => <HtmlArea {...props} />);

/**
 * The page that shows broadcasts provides the admin's rich-text editor (a feature of its own,
 * which this one does not import).
 */
export const BodyEditorProvider = BodyEditorContext.Provider;

export const useBodyEditor = () => useContext(BodyEditorContext);

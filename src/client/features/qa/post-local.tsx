import { useEffect, useState } from 'react';
import { createPostRenderer } from '../../../common/post-html.ts';
import { KatexSheet, PostHtml, TypedText } from './post-text.tsx';

/**
 * A post rendered on this device, with the server's pipeline (common/post-html.ts): loaded lazily by post-text.tsx
 * for the forms' preview and for posts the server has not rendered yet. KaTeX, two thirds of the pipeline's
 * bytes, loads only for a text with a `$` in it, the one way maths starts.
 */

type Render = (text: string) => string;
const plain = createPostRenderer(undefined);
let withMaths: Promise<Render> | undefined;

function loadMaths(): Promise<Render> {
  withMaths ??= import('katex').then((katex) => createPostRenderer(katex.default));
  // Offline before KaTeX was ever fetched: the next post that needs it tries again.
  withMaths.catch(() => (withMaths = undefined));
  return withMaths;
}

function useRendered(text: string): string | undefined {
  const maths = text.includes('$');
  const [rendered, setRendered] = useState<{ text: string; html: string }>();
  useEffect(() => {
    if (!maths) return;
    let current = true;
    loadMaths()
      .then((render) => current && setRendered({ text, html: render(text) }))
      .catch(() => undefined);
    return () => {
      current = false;
    };
  }, [text, maths]);
  if (!maths) return plain(text);
  return rendered?.text === text ? rendered.html : undefined;
}

export default function LocalPost({ text, className }: { text: string; className: string }) {
  const html = useRendered(text);
  if (html === undefined) return <TypedText text={text} className={className} />;
  return (
    <>
      <KatexSheet htmls={[html]} />
      <PostHtml html={html} className={className} />
    </>
  );
}

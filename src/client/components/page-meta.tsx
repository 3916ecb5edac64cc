import { brand } from '../../common/brand.ts';

/** Each page's own title and description; React 19 places them in <head>. */
export function PageMeta({ title, description }: { title: string; description: string }) {
  return (
    <>
      <title>{title === brand.name ? title : `${title} · ${brand.name}`}</title>
      <meta name="description" content={description} />
    </>
  );
}

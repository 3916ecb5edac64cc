import { brand } from '../../common/brand.ts';
import { useSiteOrigin } from '../lib/page-data.tsx';

/**
 * Each page's own title and description; React 19 places them in <head>. `canonical`: the page's one address
 * (a path), for search engines to file what they find under, whatever address they came by.
 */
export function PageMeta({
  title,
  description,
  canonical,
}: {
  title: string;
  description: string;
  canonical?: string;
}) {
  return (
    <>
      <title>{title === brand.name ? title : `${title} · ${brand.name}`}</title>
      <meta name="description" content={description} />
      {canonical !== undefined && <Canonical path={canonical} />}
    </>
  );
}

function Canonical({ path }: { path: string }) {
  return <link rel="canonical" href={`${useSiteOrigin()}${path}`} />;
}

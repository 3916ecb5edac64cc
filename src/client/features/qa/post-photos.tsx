import { photoPath } from '../../../common/qa.ts';

/**
 * A post's photos as thumbnails, each a link to the photo full size (which works without scripts: the server
 * renders it in /qa/<id>). A post still waiting to be sent shows the thumbnails made on this device instead.
 * `of` ("the question", "the answer by …") tells each photo's name apart from the other posts' on the page.
 */
export function PostPhotos({ photos, previews, of }: { photos?: string[]; previews?: string[]; of: string }) {
  const thumb = 'size-24 rounded-lg border border-slate-300 object-cover dark:border-slate-600';
  if (photos && photos.length > 0)
    return (
      <ul className="mt-3 flex flex-wrap gap-2" aria-label={`Photos of ${of}`}>
        {photos.map((id, i) => (
          <li key={id}>
            <a
              href={photoPath(id)}
              target="_blank"
              rel="noopener"
              className="block rounded-lg focus-visible:ring-2 focus-visible:ring-brand-600 focus-visible:outline-none"
            >
              <img
                src={photoPath(id, 'thumb')}
                alt={`Photo ${i + 1} of ${photos.length} of ${of}, opens full size`}
                width={96}
                height={96}
                loading="lazy"
                decoding="async"
                className={thumb}
              />
            </a>
          </li>
        ))}
      </ul>
    );
  if (previews && previews.length > 0)
    return (
      <ul className="mt-3 flex flex-wrap gap-2" aria-label={`Photos of ${of}, waiting to send`}>
        {previews.map((src, i) => (
          <li key={i}>
            <img
              src={src}
              alt={`Photo ${i + 1} of ${previews.length} of ${of}`}
              width={96}
              height={96}
              className={thumb}
            />
          </li>
        ))}
      </ul>
    );
  return null;
}

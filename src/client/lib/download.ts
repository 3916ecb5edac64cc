import { apiFetch, failure, readJson, type RequestOptions } from './api.ts';

/** Downloads a file the server names (Content-Disposition), with the same errors as any other call. */
export async function download(path: string, options: RequestOptions = {}): Promise<void> {
  const response = await apiFetch(path, { ...options, headers: { accept: '*/*' } });
  if (!response.ok) await readJson(response); // throws the refusal
  let blob: Blob;
  try {
    blob = await response.blob();
  } catch (error) {
    throw failure(error);
  }
  const name = /filename="([^"]+)"/.exec(response.headers.get('content-disposition') ?? '')?.[1] ?? 'download';
  const url = URL.createObjectURL(blob);
  const link = Object.assign(document.createElement('a'), { href: url, download: name });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

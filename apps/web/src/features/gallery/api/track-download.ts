import { trackDownloadContract, type ImageView } from '@lumina/contracts';
import { api } from '@/lib/api-client';

export const trackDownload = (id: string) => api.call(trackDownloadContract, { params: { id } });

const extension = (contentType: string) => contentType.split('/')[1]?.split(/[+;]/)[0] ?? 'png';

/** Counts the download (never blocking it if counting fails), then saves the full image through the browser. */
export async function downloadImage(image: Pick<ImageView, 'id' | 'url' | 'content_type' | 'prompt'>) {
  await trackDownload(image.id).catch((error: unknown) => console.warn('Download not counted', error));
  const slug = (image.prompt ?? 'lumina')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
    .slice(0, 48);
  const link = document.createElement('a');
  link.href = image.url;
  link.download = `${slug || 'lumina'}-${image.id.slice(0, 8)}.${extension(image.content_type)}`;
  link.rel = 'noopener';
  document.body.append(link);
  link.click();
  link.remove();
}

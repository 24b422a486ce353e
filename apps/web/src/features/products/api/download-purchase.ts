import { useMutation } from '@tanstack/react-query';
import { downloadPurchaseContract, type PurchaseView } from '@lumina/contracts';
import { api } from '@/lib/api-client';

/** A file name from the product's name: "Professional headshots" → `professional-headshots-1a2b3c4d.zip`. */
export function zipName(purchase: Pick<PurchaseView, 'id' | 'product_name'>): string {
  const slug = purchase.product_name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
    .slice(0, 48);
  return `${slug || 'lumina'}-${purchase.id.slice(0, 8)}.zip`;
}

/**
 * `GET /api/myproducts/{id}/download`: the zip is fetched with the session's bearer token (a plain link
 * would carry no credentials in header mode), then saved through the browser.
 */
export async function downloadPurchase(purchase: Pick<PurchaseView, 'id' | 'product_name'>) {
  const zip = await api.callForBlob(downloadPurchaseContract, { params: { id: purchase.id } });
  const url = URL.createObjectURL(zip);
  try {
    const link = document.createElement('a');
    link.href = url;
    link.download = zipName(purchase);
    link.rel = 'noopener';
    document.body.append(link);
    link.click();
    link.remove();
  } finally {
    // The click has handed the bytes to the download; the object URL is not needed after this task.
    setTimeout(() => URL.revokeObjectURL(url), 0);
  }
}

export const useDownloadPurchase = () => useMutation({ mutationFn: downloadPurchase });

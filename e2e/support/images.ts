import { expect, type Locator } from '@playwright/test';

/** Waits until an <img> has decoded, and returns its natural size. */
export async function loaded(img: Locator) {
  await expect
    .poll(() => img.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth > 0), {
      message: 'the image loads',
    })
    .toBe(true);
  return img.evaluate((el: HTMLImageElement) => ({ width: el.naturalWidth, height: el.naturalHeight }));
}

/** Waits until the browser has decoded a <video>'s first frame (a codec it cannot play never gets there). */
export async function decoded(video: Locator, message = 'Chromium decodes the video') {
  await expect
    .poll(() => video.evaluate((el: HTMLVideoElement) => el.readyState >= 2 && el.videoWidth > 0), {
      message,
      timeout: 20_000,
    })
    .toBe(true);
}

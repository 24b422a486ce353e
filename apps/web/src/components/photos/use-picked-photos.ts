import { useEffect, useRef, useState } from 'react';
import { addPicked, sameFileKey, sendable, withSize, type PickedFile } from '@/lib/photos/photo-checks';

const objectUrl = (file: File) =>
  typeof URL.createObjectURL === 'function' ? URL.createObjectURL(file) : null;
const revoke = (picked: readonly PickedFile[]) => {
  for (const p of picked) if (p.previewUrl) URL.revokeObjectURL?.(p.previewUrl);
};

/**
 * The photos a person picked but has not sent yet, with the browser's checks (lib/photos/photo-checks),
 * and which files were already sent (so picking one again is a duplicate). Previews are object URLs,
 * freed when a file leaves the list or the page goes. Shared by the Training page and onboarding.
 */
export function usePickedPhotos() {
  const [picked, setPicked] = useState<PickedFile[]>([]);
  const [uploaded, setUploaded] = useState<ReadonlySet<string>>(new Set());

  const pickedRef = useRef(picked);
  useEffect(() => {
    pickedRef.current = picked;
  });
  useEffect(() => () => revoke(pickedRef.current), []);

  return {
    picked,
    /** The files that will be sent: every photo and zip without a problem. */
    toSend: sendable(picked),
    add: (files: File[]) => setPicked((list) => addPicked(list, files, uploaded, objectUrl)),
    remove: (key: string) =>
      setPicked((list) => {
        revoke(list.filter((p) => p.key === key));
        return list.filter((p) => p.key !== key);
      }),
    measured: (key: string, size: { width: number; height: number }) =>
      setPicked((list) => withSize(list, key, size)),
    /** `sent` went up: it leaves the list and picking it again is a duplicate; what was held back stays. */
    markSent: (sent: readonly PickedFile[]) => {
      setUploaded((before) => new Set([...before, ...sent.map((p) => sameFileKey(p.file))]));
      const sentKeys = new Set(sent.map((p) => p.key));
      revoke(picked.filter((p) => sentKeys.has(p.key)));
      setPicked((list) => list.filter((p) => !sentKeys.has(p.key)));
    },
    /** A stored photo named `filename` was removed: picking that file again is no longer a duplicate. */
    forgetUploaded: (filename: string) =>
      setUploaded((before) => new Set([...before].filter((key) => !key.startsWith(`${filename}\u0000`)))),
    /** A new set starts: nothing counts as sent any more. */
    resetUploaded: () => setUploaded(new Set()),
  };
}

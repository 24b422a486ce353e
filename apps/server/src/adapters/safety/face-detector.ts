/** A face's box in the pixels of the image as given (after its EXIF orientation), and its score. */
export interface FaceBox {
  x: number;
  y: number;
  width: number;
  height: number;
  score: number;
}

export interface FaceDetection {
  faces: FaceBox[];
}

/** Finds the faces in an encoded image (any format sharp reads): does it show a person. */
export interface FaceDetector {
  detect(image: Buffer): Promise<FaceDetection>;
}

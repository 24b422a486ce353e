/** The time source of the sign-in layer and the user directory, one object per container so tests can move it forward. */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
}

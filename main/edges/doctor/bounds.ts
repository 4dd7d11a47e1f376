/** Bounds of `pixelfleet doctor`. */

/** Newest sessions read per harness when no seat of it is opened (each read is the reader's own bounded tail). */
export const DOCTOR_SAMPLE_SESSIONS = 8;

/** Longest personas.json doctor reads, in bytes (it is read whole, like the persona store reads it). */
export const DOCTOR_PERSONAS_MAX_BYTES = 16 * 1024 * 1024;

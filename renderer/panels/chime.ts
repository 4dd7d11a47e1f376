/** The optional notification chime: two short notes synthesised with WebAudio (no audio files). */

let context: AudioContext | null = null;

/** Plays the chime (about a quarter of a second); silently does nothing where audio is unavailable. */
export function playChime(): void {
  const Context = (globalThis as { AudioContext?: typeof AudioContext }).AudioContext;
  if (!Context) return;
  try {
    context ??= new Context();
    const start = context.currentTime;
    [880, 1320].forEach((frequency, index) => {
      const oscillator = context!.createOscillator();
      const gain = context!.createGain();
      const at = start + index * 0.11;
      oscillator.type = 'triangle';
      oscillator.frequency.setValueAtTime(frequency, at);
      gain.gain.setValueAtTime(0.0001, at);
      gain.gain.exponentialRampToValueAtTime(0.12, at + 0.01);
      gain.gain.exponentialRampToValueAtTime(0.0001, at + 0.14);
      oscillator.connect(gain).connect(context!.destination);
      oscillator.start(at);
      oscillator.stop(at + 0.15);
    });
  } catch {
    // Audio may be blocked until the owner interacts with the page; a missed chime is harmless.
  }
}

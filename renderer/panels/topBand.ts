/**
 * The band along the top edge that the world is laid out below, so no panel there covers a station sign: the toolbar
 * and the needs-you strip, whose entries carry a reply row under them (its two rows are kept whether or not anyone
 * waits, so the floor does not jump as the queue fills and empties), then the notices while any show. The panels
 * open below the band too (a notice never covers a panel's Close): CSS reads `--strip-band` and `--notices-room`.
 */

/** CSS pixels the toolbar row and the strip's two rows (an entry, its reply box) take from the top edge, at least. */
export const STRIP_BAND = 64;
/** Gap in CSS pixels between a part of the band and what comes below it. */
const GAP = 4;

/** Where each part of the band ends (CSS pixels from the top; null: not shown, or not part of the band now). */
export interface BandParts {
  strip: number | null;
  notices: number | null;
}

/** The strip's band and the room the notices take under it, in CSS pixels. */
export function topBand(parts: BandParts): { strip: number; notices: number } {
  const strip = Math.max(STRIP_BAND, parts.strip === null ? 0 : Math.ceil(parts.strip) + GAP);
  const notices = parts.notices === null ? 0 : Math.max(0, Math.ceil(parts.notices) + GAP - strip);
  return { strip, notices };
}

/** The band's height now, in CSS pixels (as last measured): a panel placed by script keeps below it. */
export function topBandNow(root: HTMLElement = document.documentElement): number {
  const read = (name: string) => Number.parseFloat(root.style.getPropertyValue(name)) || 0;
  return Math.max(STRIP_BAND, read('--strip-band')) + read('--notices-room');
}

/**
 * Follows the strip's and the notices' sizes: sets `--strip-band` and `--notices-room` on `root` and calls `changed`
 * with the band's whole height whenever it changes. An expanded strip ("+N more" shows all) is the owner's own
 * overlay and leaves the band as it was.
 */
export function followTopBand(strip: HTMLElement, notices: HTMLElement, changed: (height: number) => void, root: HTMLElement = document.documentElement): void {
  let stripBottom: number | null = null;
  let shown = -1;
  const bottomOf = (part: HTMLElement): number | null => {
    if (part.hidden) return null;
    const box = part.getBoundingClientRect();
    return box.height > 0 ? box.bottom : null;
  };
  const measure = () => {
    if (!strip.classList.contains('queue-expanded')) stripBottom = bottomOf(strip) ?? stripBottom;
    // The notices hang from the strip's band: place them first, then read where they end.
    root.style.setProperty('--strip-band', `${topBand({ strip: stripBottom, notices: null }).strip}px`);
    const band = topBand({ strip: stripBottom, notices: bottomOf(notices) });
    const height = band.strip + band.notices;
    root.style.setProperty('--notices-room', `${band.notices}px`);
    if (height === shown) return;
    shown = height;
    changed(height);
  };
  const observer = new ResizeObserver(measure);
  observer.observe(strip);
  observer.observe(notices);
  addEventListener('resize', measure);
  measure();
}

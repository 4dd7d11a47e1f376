/**
 * Pure rules for what a station's sign shows at a zoom: its text and the whole scale the pixel font is drawn at.
 * Pixel text is only crisp at a whole scale, and the names' scale (`textScale`) makes a sign as wide in world pixels
 * as its text in font pixels, which a narrow station's header cannot hold beside its board. So each sign steps down to
 * the largest whole scale, up to the names', at which it shows whole, rather than lose its end; one long sign does not
 * shrink the others (at 1024×640 "researcher" alone is drawn at scale 1, the rest stay at 2). Only a sign that does
 * not fit even at scale 1 is shortened with an ellipsis.
 */
import { textScale } from './camera';
import { SIGN_PLATE_EXTRA } from './labelPictures';
import { signRoom, type StationLayout } from './layout';
import { pixelTextWidth, shortenToWidth } from './pixelFont';

/** The lobby's sign. */
export const LOBBY_SIGN = 'unassigned';

/** A sign to fit: its station's text and its place. */
export interface SignInput {
  label: string;
  station: StationLayout;
}

/** What a sign shows: its text (shortened only when it fits at no scale) and the whole scale its font is drawn at. */
export interface SignFace {
  text: string;
  scale: number;
  /** True when the sign starts at the role icon and covers it: at a small zoom a whole role name beats its icon. */
  overIcon?: true;
}

/** World pixels the role icon takes before the sign's text. */
export const ICON_ROOM = 14;

/**
 * Font pixels a sign at scale 1 may take when it covers the role icon: from the station's padding to half the gap
 * before the board (or door), less the plate's frame.
 */
export function overIconTextRoom(station: StationLayout, zoom: number): number {
  const end = station.door ? station.door.x : station.board.x;
  return Math.max(0, Math.floor((end - 4 - station.sign.x) * zoom)) - SIGN_PLATE_EXTRA;
}

/** Font pixels the sign's text may take at a whole text scale: the room beside the board less the plate's frame. */
export function signTextRoom(station: StationLayout, zoom: number, scale: number): number {
  return Math.floor(signRoom(station, zoom) / scale) - SIGN_PLATE_EXTRA;
}

/** The largest whole scale from `ceiling` down to 1 at which the text shows whole in the station's sign; 0 when none. */
export function wholeSignScale(text: string, station: StationLayout, zoom: number, ceiling: number): number {
  const width = pixelTextWidth(text.trim());
  for (let scale = Math.max(1, Math.floor(ceiling)); scale >= 1; scale -= 1) if (width <= signTextRoom(station, zoom, scale)) return scale;
  return 0;
}

/**
 * What one sign shows at a zoom: the largest whole scale up to the names' (`textScale`) at which it shows whole, else
 * shortened at scale 1.
 */
export function signFace(sign: SignInput, zoom: number): SignFace {
  const scale = wholeSignScale(sign.label, sign.station, zoom, textScale(zoom));
  if (scale > 0) return { text: sign.label.trim(), scale };
  // At scale 1 the sign may take the icon's room too (at zoom 0.75 "planner" then reads whole, not "plann…").
  return { text: shortenToWidth(sign.label, overIconTextRoom(sign.station, zoom)), scale: 1, overIcon: true };
}

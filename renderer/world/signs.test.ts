import { describe, expect, it } from 'vitest';
import { textScale } from './camera';
import { COMMON_WINDOWS, layoutWorld, placeStation, signRoom, usableViewport, type StationInput, type StationLayout } from './layout';
import { ELLIPSIS, pixelTextWidth } from './pixelFont';
import { LOBBY_SIGN, overIconTextRoom, signFace, signTextRoom, wholeSignScale, type SignInput } from './signs';

const BUILT_INS = ['planner', 'designer', 'builder', 'tester', 'reviewer', 'researcher'];

/** A station of `width` world pixels with nobody at work in it. */
function station(width: number, lobby = false): StationLayout {
  return placeStation({ key: lobby ? '' : 'station', lobby }, { x: 0, y: 0, width, height: 64 }, 0, 0);
}

/** The demo's floor for a window: six built-ins, "Sound Designer" and the lobby, six agents. */
function demoSigns(window: { width: number; height: number }): { zoom: number; signs: SignInput[] } {
  const stations: StationInput[] = [...BUILT_INS, 'sound designer'].map((key) => ({ key, lobby: false }));
  stations.push({ key: '', lobby: true });
  const rotation = ['planner', 'builder', 'tester', 'reviewer', 'sound designer', ''];
  const agents = rotation.map((stationKey, index) => ({ id: `agent ${index}`, stationKey }));
  const layout = layoutWorld(stations, agents, usableViewport(window));
  const signs = stations.map((input) => ({
    label: input.lobby ? LOBBY_SIGN : input.key === 'sound designer' ? 'Sound Designer' : input.key,
    station: layout.stations.get(input.key)!,
  }));
  return { zoom: layout.zoom, signs };
}

describe('station signs', () => {
  it('the room for the text is the room beside the board in font pixels at the scale, less the plate', () => {
    const narrow = station(108);
    expect(signTextRoom(narrow, 4, 4)).toBe(signRoom(narrow, 4) / 4 - 6);
    expect(signTextRoom(narrow, 4, 2)).toBe(signRoom(narrow, 4) / 2 - 6);
  });

  it('a sign steps down to the largest whole scale at which it shows whole, and reports 0 when none holds it', () => {
    const narrow = station(114);
    // 54 world pixels beside the board at zoom 4: "RESEARCHER" (59 px) needs scale 3, "SOUND DESIGNER" (79 px) scale 2.
    expect(wholeSignScale('planner', narrow, 4, 4)).toBe(4);
    expect(wholeSignScale('researcher', narrow, 4, 4)).toBe(3);
    expect(wholeSignScale('Sound Designer', narrow, 4, 4)).toBe(2);
    expect(wholeSignScale('Sound Designer', narrow, 4, 1)).toBe(1);
    // At zoom 2 the same header holds 102 font pixels at scale 1.
    expect(wholeSignScale('Chief Documentation Lead', narrow, 2, 2)).toBe(0);
  });

  it('each sign takes the largest whole scale up to the names\' at which it shows whole: a long one shrinks no other', () => {
    const narrow = station(114);
    const face = (label: string, width = 114) => signFace({ label, station: width === 114 ? narrow : station(width) }, 4);
    expect(face('planner')).toEqual({ text: 'planner', scale: 4 });
    expect(face('researcher')).toEqual({ text: 'researcher', scale: 3 });
    expect(face('Sound Designer')).toEqual({ text: 'Sound Designer', scale: 2 });
    expect(signFace({ label: LOBBY_SIGN, station: station(114, true) }, 4).scale).toBeGreaterThanOrEqual(1);
    // Wide stations: the names' scale, and never more, however much room a short role has.
    expect(face('Art', 400)).toEqual({ text: 'Art', scale: textScale(4) });
    expect(signFace({ label: 'planner', station: station(400) }, 2.5).scale).toBe(2);
  });

  it('only a sign that fits at no scale is shortened, at scale 1 where it keeps the most of its text', () => {
    const narrow = station(108);
    const long = { label: 'Chief Documentation Lead', station: narrow };
    const face = signFace(long, 2);
    expect(face.scale).toBe(1);
    expect(face.text.endsWith(ELLIPSIS)).toBe(true);
    // A shortened sign takes the role icon's room too.
    expect(face.overIcon).toBe(true);
    expect(pixelTextWidth(face.text)).toBeLessThanOrEqual(overIconTextRoom(narrow, 2));
    expect(pixelTextWidth(face.text)).toBeGreaterThan(signTextRoom(narrow, 2, 1));
    expect(face.text.length).toBeGreaterThan(10);
    // No room at all: nothing to show.
    expect(signFace({ label: 'planner', station: station(36) }, 2).text).toBe('');
  });

  it('at zoom 0.75 a sign that does not fit beside its icon covers the icon rather than lose its end', () => {
    const narrow = station(108);
    expect(wholeSignScale('planner', narrow, 0.75, 1)).toBe(0);
    expect(signFace({ label: 'planner', station: narrow }, 0.75)).toEqual({ text: 'planner', scale: 1, overIcon: true });
  });

  for (const window of COMMON_WINDOWS) {
    it(`in the demo at ${window.width}×${window.height} every sign shows whole, each at the largest scale that holds it`, () => {
      const { zoom, signs } = demoSigns(window);
      for (const sign of signs) {
        const face = signFace(sign, zoom);
        expect(face.text, sign.label).toBe(sign.label);
        expect(Number.isInteger(face.scale) && face.scale >= 1 && face.scale <= textScale(zoom), sign.label).toBe(true);
        // Drawn one step larger it would no longer show whole (or it is at the names' scale already).
        if (face.scale < textScale(zoom)) expect(pixelTextWidth(sign.label), sign.label).toBeGreaterThan(signTextRoom(sign.station, zoom, face.scale + 1));
      }
    });
  }
});

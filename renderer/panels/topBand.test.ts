import { describe, expect, it } from 'vitest';
import { STRIP_BAND, topBand } from './topBand';

describe('the top band the floor is laid out below', () => {
  it('keeps the strip\'s two rows whether or not anyone waits, so the floor does not jump as the queue fills and empties', () => {
    expect(topBand({ strip: null, notices: null })).toEqual({ strip: STRIP_BAND, notices: 0 });
    expect(topBand({ strip: 40, notices: null })).toEqual({ strip: STRIP_BAND, notices: 0 });
  });

  it('grows with a strip taller than its two rows', () => {
    expect(topBand({ strip: 70.2, notices: null }).strip).toBe(75);
  });

  it('adds the room a notice takes under the strip, and none once it is gone', () => {
    expect(topBand({ strip: 58, notices: 120.5 })).toEqual({ strip: STRIP_BAND, notices: 125 - STRIP_BAND });
    expect(topBand({ strip: 58, notices: null }).notices).toBe(0);
  });
});

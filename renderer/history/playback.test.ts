import { describe, expect, it } from 'vitest';
import { changeSpeed, playbackAt, startPlayback } from './playback';

describe('the playback clock', () => {
  const start = 1_000_000_000;
  const wall = 5_000;
  const end = start + 3_600_000;

  it('runs the shown time 60 and 600 times as fast as the wall clock', () => {
    expect(playbackAt(startPlayback(start, 60, wall), wall + 1000, end)).toEqual({ atMs: start + 60_000, ended: false });
    expect(playbackAt(startPlayback(start, 600, wall), wall + 1000, end)).toEqual({ atMs: start + 600_000, ended: false });
  });

  it('never runs backwards when the wall clock does', () => {
    expect(playbackAt(startPlayback(start, 60, wall), wall - 500, end).atMs).toBe(start);
  });

  it('ends at the end of the span', () => {
    expect(playbackAt(startPlayback(start, 600, wall), wall + 6000, end)).toEqual({ atMs: end, ended: true });
    expect(playbackAt(startPlayback(start, 600, wall), wall + 60_000, end)).toEqual({ atMs: end, ended: true });
  });

  it('changes speed without a jump in the shown time', () => {
    const slow = startPlayback(start, 60, wall);
    const fast = changeSpeed(slow, 600, wall + 2000, end);
    expect(playbackAt(fast, wall + 2000, end).atMs).toBe(start + 120_000);
    expect(playbackAt(fast, wall + 3000, end).atMs).toBe(start + 720_000);
  });
});

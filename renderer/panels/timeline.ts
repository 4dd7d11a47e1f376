/**
 * The timeline bar along the bottom of the world (H toggles it): the retained span with its needs-you spans (a red
 * band) and job counts (columns), a handle to drag through it, play at 60× and 600×, and Live. While the world shows
 * the past, a banner says when ("PAST · 14:32") and the page is tinted (`body[data-history-mode="past"]`). The strips
 * are painted into a small canvas only when the span or the bar's width changes; the handle is a DOM slider.
 * Data attributes: `data-timeline` with `data-mode` (live|past) and `data-at` (the moment shown, ISO, '' when live).
 */
import type { AppState } from '../store/appState';
import type { AppStore } from '../store/createAppStore';
import { inPast } from '../store/historyActions';
import { jobColumns, msAt, needsYouStrips, pastBanner, scaleOf, ticks, xOf, type TimelineScale } from '../history/timelineGeometry';
import { PLAYBACK_SPEEDS } from '../history/playback';
import { element, setAttribute, setText } from './dom';

/** Milliseconds between reads of the span while the bar is open (its right end is now, and now moves). */
export const SPAN_REFRESH_MS = 60_000;
/** Pixels of the window's bottom the open bar takes (with its margin): the floor is fitted above them. */
export const TIMELINE_INSET = 46;
/** Height of the painted strip area, in CSS pixels. */
const TRACK_HEIGHT = 24;
/** Height of the needs-you band at the top of the track. */
const BAND_HEIGHT = 5;
/** Pixels at the bar's right end that mean now. */
const LIVE_EDGE_PX = 2;
/** How far an arrow key moves the handle (Shift: ten times as far). */
const KEY_STEP_MS = 60_000;

/** The bar, led by the past banner; both follow the store. */
export class Timeline {
  readonly root: HTMLElement;
  private readonly banner: HTMLElement;
  private readonly canvas: HTMLCanvasElement;
  private readonly track: HTMLElement;
  private readonly handle: HTMLElement;
  private readonly shown: HTMLElement;
  private readonly bannerText: HTMLElement;
  private readonly speedButtons = new Map<number, HTMLButtonElement>();
  private painted = '';
  private refresh: ReturnType<typeof setInterval> | null = null;
  private dragging = false;
  /** The track's width as last observed (read from the observer, never from layout while syncing). */
  private width = 0;

  constructor(private readonly store: AppStore) {
    const actions = () => store.getState().actions;
    this.canvas = element('canvas', { class: 'timeline-strips', 'aria-hidden': 'true' });
    this.handle = element('div', { class: 'timeline-handle', role: 'slider', tabindex: 0, 'aria-label': 'Moment shown', 'data-timeline-handle': true });
    this.track = element('div', { class: 'timeline-track', 'data-timeline-track': true }, this.canvas, this.handle);
    this.shown = element('span', { class: 'timeline-shown', 'data-timeline-shown': true });
    const speeds = PLAYBACK_SPEEDS.map((speed) => {
      const button = element('button', { type: 'button', 'data-timeline-play': speed, 'aria-pressed': 'false', title: `Play at ${speed}×`, onclick: () => (store.getState().history.playing === speed ? actions().pause() : actions().play(speed)) }, `▶ ${speed}×`);
      this.speedButtons.set(speed, button);
      return button;
    });
    const live = element('button', { type: 'button', 'data-timeline-live': true, title: 'Back to now (Esc)', onclick: () => actions().goLive() }, 'Live');
    this.bannerText = element('span', { 'data-past-banner-text': true });
    // The banner leads the bar (whose band the floor is fitted above), so it covers no station: the bar's Live ends it.
    this.banner = element('div', { class: 'past-banner', 'data-past-banner': true, role: 'status', hidden: true }, this.bannerText);
    this.root = element('section', { class: 'timeline pixel-panel', 'data-timeline': true, 'data-mode': 'live', 'data-at': '', 'aria-label': 'Timeline', hidden: true }, this.banner, ...speeds, this.track, this.shown, live);
    this.attachPointer();
    this.attachKeys();
    store.subscribe((state, previous) => {
      if (state.history !== previous.history) this.sync(state);
    });
    // The track's width comes from an observer: reading it while syncing would force a layout on every seek.
    new ResizeObserver(([entry]) => {
      const width = Math.floor(entry.contentRect.width);
      if (width === this.width) return;
      this.width = width;
      this.sync(store.getState());
    }).observe(this.track);
    this.sync(store.getState());
  }

  /** The bar's scale now (null before the span is read or while hidden). */
  private scale(): TimelineScale | null {
    const span = this.store.getState().history.span;
    const width = this.width;
    return span && width > 0 ? scaleOf(span, width) : null;
  }

  private sync(state: AppState): void {
    const { timelineOpen, viewing, playing, span } = state.history;
    const past = inPast(state);
    this.root.hidden = !timelineOpen;
    document.body.dataset.historyMode = past ? 'past' : 'live';
    document.body.dataset.timelineOpen = String(timelineOpen);
    setAttribute(this.root, 'data-mode', past ? 'past' : 'live');
    setAttribute(this.root, 'data-at', viewing?.moment?.at ?? '');
    for (const [speed, button] of this.speedButtons) setAttribute(button, 'aria-pressed', String(playing === speed));
    const atMs = viewing ? viewing.atMs : null;
    const label = atMs === null ? 'Live' : pastBanner(atMs, Date.now());
    // What the owner should know about the bar: a failed read, recording off, or a moment outside what was kept.
    const inexact = viewing?.moment?.exact === false;
    const off = span && !span.recording ? `History is not being recorded${span.reason ? `: ${span.reason}` : ''}` : null;
    const note = viewing?.error ?? state.history.spanError ?? off ?? (inexact ? 'Outside the history kept: the nearest recorded moment is shown' : null);
    setText(this.shown, `${atMs === null ? 'now' : label.replace('PAST · ', '')}${note ? ' ⚠' : ''}`);
    setAttribute(this.shown, 'title', note ?? '');
    setAttribute(this.root, 'data-timeline-note', note ?? '');
    this.banner.hidden = !past;
    setText(this.bannerText, inexact ? `${label} (nearest recorded)` : label);
    this.followSpan(timelineOpen);
    if (!timelineOpen) return;
    const scale = this.scale();
    if (scale) {
      this.paint(scale, span!);
      const x = atMs === null ? scale.width : xOf(scale, atMs);
      this.handle.style.transform = `translateX(${Math.round(x)}px)`;
      setAttribute(this.handle, 'aria-valuemin', String(scale.fromMs));
      setAttribute(this.handle, 'aria-valuemax', String(scale.toMs));
      setAttribute(this.handle, 'aria-valuenow', String(atMs ?? scale.toMs));
      setAttribute(this.handle, 'aria-valuetext', atMs === null ? 'now' : label);
    }
  }

  /** Reads the span now and then while the bar is open; nothing runs while it is closed. */
  private followSpan(open: boolean): void {
    if (open && this.refresh === null) this.refresh = setInterval(() => void this.store.getState().actions.refreshSpan(), SPAN_REFRESH_MS);
    if (!open && this.refresh !== null) {
      clearInterval(this.refresh);
      this.refresh = null;
    }
  }

  /** Paints the needs-you band, the job columns and the ticks, only when the span or the width changed. */
  private paint(scale: TimelineScale, span: NonNullable<AppState['history']['span']>): void {
    const key = `${scale.width}|${span.from}|${span.to}|${span.buckets.length}|${span.needsYou.length}`;
    if (key === this.painted) return;
    this.painted = key;
    const ratio = devicePixelRatio || 1;
    this.canvas.width = Math.round(scale.width * ratio);
    this.canvas.height = Math.round(TRACK_HEIGHT * ratio);
    this.canvas.style.width = `${scale.width}px`;
    this.canvas.style.height = `${TRACK_HEIGHT}px`;
    const context = this.canvas.getContext('2d');
    if (!context) return;
    context.scale(ratio, ratio);
    context.fillStyle = '#6b4226';
    for (const column of jobColumns(scale, span.buckets, span.bucketMs, TRACK_HEIGHT - BAND_HEIGHT - 9)) context.fillRect(column.x, TRACK_HEIGHT - 9 - column.height, column.width, column.height);
    context.fillStyle = '#e2453d';
    for (const strip of needsYouStrips(scale, span.needsYou)) context.fillRect(strip.x, 0, strip.width, BAND_HEIGHT);
    context.fillStyle = '#2a1f2a';
    context.font = '9px ui-monospace, monospace';
    for (const tick of ticks(scale)) {
      context.fillRect(Math.round(tick.x), TRACK_HEIGHT - 9, 1, 2);
      context.fillText(tick.label, Math.min(Math.max(0, tick.x - 12), scale.width - 26), TRACK_HEIGHT - 1);
    }
  }

  /** Pressing or dragging on the track moves the handle there and shows that moment. */
  private attachPointer(): void {
    const seekAt = (event: PointerEvent) => {
      const scale = this.scale();
      if (!scale) return;
      const x = event.clientX - this.track.getBoundingClientRect().left;
      const { actions } = this.store.getState();
      // The bar's last pixels are now: the handle dropped there is live again.
      if (x >= scale.width - LIVE_EDGE_PX) actions.goLive();
      else actions.seek(msAt(scale, x));
    };
    this.track.addEventListener('pointerdown', (event) => {
      if (event.button !== 0) return;
      this.dragging = true;
      this.track.setPointerCapture(event.pointerId);
      this.handle.focus();
      seekAt(event);
    });
    this.track.addEventListener('pointermove', (event) => {
      if (this.dragging) seekAt(event);
    });
    const end = (event: PointerEvent) => {
      this.dragging = false;
      if (this.track.hasPointerCapture(event.pointerId)) this.track.releasePointerCapture(event.pointerId);
    };
    this.track.addEventListener('pointerup', end);
    this.track.addEventListener('pointercancel', end);
  }

  /** On the handle: arrows step a minute (Shift: ten), Home goes to the start, End and Escape to live. */
  private attachKeys(): void {
    this.handle.addEventListener('keydown', (event) => {
      const { history, actions } = this.store.getState();
      const scale = this.scale();
      if (!scale || !history.span) return;
      const at = history.viewing?.atMs ?? scale.toMs;
      const step = event.shiftKey ? KEY_STEP_MS * 10 : KEY_STEP_MS;
      if (event.key === 'ArrowLeft') actions.seek(Math.max(scale.fromMs, at - step));
      else if (event.key === 'ArrowRight') actions.seek(at + step);
      else if (event.key === 'Home') actions.seek(scale.fromMs);
      else if (event.key === 'End' || event.key === 'Escape') actions.goLive();
      else return;
      event.preventDefault();
      event.stopPropagation();
    });
  }
}

// The notifier's rules N1–N4, the service over a fleet's change stream, and the Electron delivery with a stand-in
// for Electron's Notification class (there is no Electron binary in tests).
import { describe, expect, it } from 'vitest';
import { parseEvent, type Notification } from '../../../shared/contract';
import type { JobNotice } from '../jobs/reminders';
import type { Activity, FleetSnapshot, Persona, Seat } from '../../../shared/schemas';
import { defaultNotifySettings } from './notifySettings';
import { createDesktopDelivery, type DesktopNotification } from './desktop';
import { NotifierService } from './NotifierService';
import { decideNotifications } from './notifyRules';

const persona = (id: string, name: string): Persona => ({ id, name, appearance: { body: 0, hair: 0, palette: 0, accessory: 0 }, createdAt: 'a', updatedAt: 'a' });
const seat = (id: string, activity: Activity): Seat => ({ id, harness: 'claude', personaId: `p-${id}`, address: { harness: 'claude', home: '/h', sessionId: id, cwd: '/home/ada/src/pixelfleet' }, activity });
const snap = (...seats: Seat[]): FleetSnapshot => ({ cursor: 1, seats, personas: seats.map((entry) => persona(entry.personaId, `Agent ${entry.id}`)), stations: [] });
const working: Activity = { state: 'working', certain: true, since: '2026-05-01T10:00:00.000Z' };
const question: Activity = { state: 'needs-you', why: 'question', certain: true, since: '2026-05-01T10:01:00.000Z', label: 'AskUserQuestion' };
const approval: Activity = { state: 'needs-you', why: 'approval', certain: false, since: '2026-05-01T10:01:00.000Z', label: 'Bash · Run unit tests' };
const done: Activity = { state: 'needs-you', why: 'turn-done', certain: true, since: '2026-05-01T10:02:00.000Z' };
const settings = defaultNotifySettings();
const noTurn = () => null;

describe('notification rules', () => {
  it('N1: nothing for states present at start-up', () => {
    expect(decideNotifications(null, snap(seat('a', question)), noTurn, settings).notes).toEqual([]);
  });

  it('N2: nothing for a seat that arrives already waiting', () => {
    const { marks } = decideNotifications(null, snap(seat('a', working)), noTurn, settings);
    expect(decideNotifications(marks, snap(seat('a', working), seat('b', question)), noTurn, settings).notes).toEqual([]);
  });

  it('N3: a seat entering needs-you for a listed reason notifies once with name, why and project', () => {
    const { marks } = decideNotifications(null, snap(seat('a', working)), noTurn, settings);
    const { notes } = decideNotifications(marks, snap(seat('a', approval)), noTurn, settings);
    expect(notes).toEqual([
      { seatId: 'a', personaId: 'p-a', title: 'Agent a', body: 'may wait for approval (or runs a long tool) · Bash · Run unit tests · in pixelfleet', why: 'approval', certain: false, sound: false },
    ]);
    const off = decideNotifications(marks, snap(seat('a', approval)), noTurn, { ...settings, on: ['question'] });
    expect(off.notes).toEqual([]);
  });

  it('N3: a finished turn notifies only after a turn of at least minTurnSeconds', () => {
    const { marks } = decideNotifications(null, snap(seat('a', working)), noTurn, settings);
    expect(decideNotifications(marks, snap(seat('a', done)), () => 59_000, settings).notes).toEqual([]);
    expect(decideNotifications(marks, snap(seat('a', done)), () => null, settings).notes).toEqual([]);
    expect(decideNotifications(marks, snap(seat('a', done)), () => 60_000, settings).notes.map((note) => note.why)).toEqual(['turn-done']);
  });

  it('N4: a re-evaluation that keeps the state never notifies again', () => {
    const first = decideNotifications(null, snap(seat('a', working)), noTurn, settings);
    const second = decideNotifications(first.marks, snap(seat('a', question)), noTurn, settings);
    expect(second.notes).toHaveLength(1);
    expect(decideNotifications(second.marks, snap(seat('a', { ...question })), noTurn, settings).notes).toEqual([]);
  });
});

describe('the notifier service', () => {
  it('delivers what the fleet changes deserve and stops on dispose', () => {
    const listeners = new Set<(snapshot: FleetSnapshot) => void>();
    const fleet = { onChange: (listener: (snapshot: FleetSnapshot) => void) => (listeners.add(listener), () => listeners.delete(listener)), lastTurnMs: () => 120_000 };
    const delivered: Notification[] = [];
    const notifier = new NotifierService({ fleet, settings: { ...settings, sound: true }, deliver: (note) => delivered.push(note) });
    const emit = (snapshot: FleetSnapshot) => listeners.forEach((listener) => listener(snapshot));
    emit(snap(seat('a', working)));
    emit(snap(seat('a', done)));
    expect(delivered.map((note) => [note.seatId, note.why, note.sound])).toEqual([['a', 'turn-done', true]]);
    notifier.dispose();
    emit(snap(seat('a', question)));
    expect(delivered).toHaveLength(1);
  });
});

describe('job reminders through the same notifier (rule N5)', () => {
  const notice = (id: string, kind: JobNotice['kind']): JobNotice => ({
    id,
    kind,
    seatId: 'a',
    personaId: 'p-a',
    alias: 'explore-3',
    nativeId: 'toolu_1',
    title: kind === 'job-reminder' ? 'explore-3 is still running' : 'explore-3 finished',
    body: `Agent a's background Explore "Scan" ${kind === 'job-reminder' ? 'has run 10 min' : 'ended: completed'}.`,
    at: '2026-05-01T10:10:00.000Z',
  });

  it('delivers each reminder and finish once, as a job notification the contract accepts, and stops on dispose', () => {
    const noticeListeners = new Set<(value: JobNotice) => void>();
    const jobs = { onNotice: (listener: (value: JobNotice) => void) => (noticeListeners.add(listener), () => noticeListeners.delete(listener)) };
    const fleet = { onChange: () => () => {}, lastTurnMs: () => null };
    const delivered: Notification[] = [];
    const notifier = new NotifierService({ fleet, jobs, settings: { ...settings, sound: true }, deliver: (note) => delivered.push(note) });
    const emit = (value: JobNotice) => noticeListeners.forEach((listener) => listener(value));
    emit(notice('job-reminder:claude:s|toolu_1:1', 'job-reminder'));
    emit(notice('job-reminder:claude:s|toolu_1:1', 'job-reminder'));
    emit(notice('job-finished:claude:s|toolu_1:1', 'job-finished'));
    expect(delivered.map((note) => [note.job?.kind, note.title, note.personaId, note.sound, note.why])).toEqual([
      ['job-reminder', 'explore-3 is still running', 'p-a', true, undefined],
      ['job-finished', 'explore-3 finished', 'p-a', true, undefined],
    ]);
    expect(delivered.every((note) => parseEvent('notify.show', note).ok)).toBe(true);
    notifier.dispose();
    emit(notice('job-reminder:claude:s|toolu_1:2', 'job-reminder'));
    expect(delivered).toHaveLength(2);
  });

  it('the contract refuses a notification with both or neither of why and job', () => {
    const base = { seatId: 'a', personaId: 'p-a', title: 't', body: 'b', certain: true, sound: false };
    expect(parseEvent('notify.show', base).ok).toBe(false);
    expect(parseEvent('notify.show', { ...base, why: 'question', job: { id: 'x', kind: 'job-reminder', alias: null, nativeId: null } }).ok).toBe(false);
    expect(parseEvent('notify.show', { ...base, why: 'question' }).ok).toBe(true);
  });
});

describe('the Electron delivery (with a stand-in Notification class)', () => {
  function standIn() {
    const shown: Array<{ options: { title: string; body: string; silent?: boolean }; click: () => void }> = [];
    class StandIn implements DesktopNotification {
      private click: () => void = () => {};
      constructor(readonly options: { title: string; body: string; silent?: boolean }) {}
      static isSupported() {
        return true;
      }
      on(_event: 'click', listener: () => void) {
        this.click = listener;
        return this;
      }
      show() {
        shown.push({ options: this.options, click: () => this.click() });
      }
    }
    return { StandIn, shown };
  }
  const note: Notification = { seatId: 'a', personaId: 'p-a', title: 'Ada', body: 'has a question · in app', why: 'question', certain: true, sound: false };

  it('shows the name and why, none while the window has focus, and a click focuses that agent', () => {
    const { StandIn, shown } = standIn();
    let focused = true;
    const focusedAgents: string[] = [];
    const deliver = createDesktopDelivery({ Notification: StandIn, isFocused: () => focused, focusAgent: (id) => focusedAgents.push(id) });
    expect(deliver(note)).toBe(false);
    expect(shown).toHaveLength(0);
    focused = false;
    expect(deliver(note)).toBe(true);
    expect(shown.map((entry) => entry.options)).toEqual([{ title: 'Ada', body: 'has a question · in app', silent: true }]);
    shown[0].click();
    expect(focusedAgents).toEqual(['p-a']);
  });
});

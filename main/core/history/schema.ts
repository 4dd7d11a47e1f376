/**
 * The history store's schema, versioned by `PRAGMA user_version` and marked as ours by `PRAGMA application_id`.
 * Each migration takes the store from the version before to its own; a store from a newer Pixelfleet is never
 * written. Times are milliseconds since the epoch (UTC); every table holds transitions, never a census.
 */
import type { Database } from './sqlite';

/** `PRAGMA application_id` of a Pixelfleet history store ("PXFH"). */
export const HISTORY_APPLICATION_ID = 0x50584648;

/** The migrations, in order; `MIGRATIONS[n]` takes a store from version n to n + 1. */
export const MIGRATIONS: readonly string[] = [
  // 1: the transitions of seats, activity, needs-you, personas (roles), jobs and launches, and whole states. Seat ids,
  // persona ids, labels and job types are interned in `name` (rows hold small integers, not the same strings again);
  // a job is one row, its start at `at` and its end at `ended_at` (the end updates the row; version 3 moves ends to
  // rows of their own).
  `
  CREATE TABLE name (id INTEGER PRIMARY KEY, text TEXT NOT NULL UNIQUE);
  CREATE TABLE seat_event (id INTEGER PRIMARY KEY, at INTEGER NOT NULL, seat INTEGER NOT NULL, persona INTEGER NOT NULL,
    opened INTEGER NOT NULL, harness TEXT, session TEXT, home TEXT, cwd TEXT, path TEXT);
  CREATE INDEX seat_event_at ON seat_event (at);
  CREATE TABLE activity (id INTEGER PRIMARY KEY, at INTEGER NOT NULL, seat INTEGER NOT NULL, persona INTEGER NOT NULL,
    state TEXT NOT NULL, why TEXT, certain INTEGER NOT NULL, label INTEGER, since INTEGER);
  CREATE INDEX activity_at ON activity (at);
  CREATE TABLE needs_you (id INTEGER PRIMARY KEY, at INTEGER NOT NULL, seat INTEGER NOT NULL, persona INTEGER NOT NULL,
    entered INTEGER NOT NULL, why TEXT NOT NULL, certain INTEGER NOT NULL, waited_ms INTEGER);
  CREATE INDEX needs_you_at ON needs_you (at);
  CREATE TABLE persona_event (id INTEGER PRIMARY KEY, at INTEGER NOT NULL, persona INTEGER NOT NULL, removed INTEGER NOT NULL,
    name TEXT, role TEXT, previous_role TEXT, role_changed INTEGER NOT NULL, appearance TEXT, created_at TEXT);
  CREATE INDEX persona_event_at ON persona_event (at);
  CREATE TABLE job (id INTEGER PRIMARY KEY, at INTEGER NOT NULL, ended_at INTEGER, seat INTEGER NOT NULL,
    persona INTEGER NOT NULL, native_id TEXT, key TEXT, alias TEXT, type INTEGER, label INTEGER NOT NULL,
    background INTEGER NOT NULL, outcome TEXT);
  CREATE INDEX job_at ON job (at);
  CREATE INDEX job_ended_at ON job (ended_at) WHERE ended_at IS NOT NULL;
  CREATE TABLE launch (id INTEGER PRIMARY KEY, at INTEGER NOT NULL, persona INTEGER NOT NULL, harness TEXT NOT NULL,
    name TEXT NOT NULL, role TEXT);
  CREATE INDEX launch_at ON launch (at);
  CREATE TABLE snapshot (id INTEGER PRIMARY KEY, at INTEGER NOT NULL, state TEXT NOT NULL);
  CREATE INDEX snapshot_at ON snapshot (at);
  `,
  // 2: usage samples (issue 26's seat usage, at most one a minute per seat) and the job aliases, moved here from
  // job-aliases.json so a new subagent adds one row instead of rewriting the whole list.
  `
  CREATE TABLE usage_sample (id INTEGER PRIMARY KEY, at INTEGER NOT NULL, seat INTEGER NOT NULL, persona INTEGER NOT NULL,
    input INTEGER NOT NULL, output INTEGER NOT NULL, cache_read INTEGER NOT NULL, cache_write INTEGER NOT NULL,
    cost_usd REAL, context_used INTEGER, context_fill REAL);
  CREATE INDEX usage_sample_at ON usage_sample (at);
  CREATE TABLE alias (key TEXT PRIMARY KEY, alias TEXT NOT NULL UNIQUE, at INTEGER NOT NULL);
  CREATE TABLE alias_counter (slug TEXT PRIMARY KEY, value INTEGER NOT NULL);
  CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
  `,
  // 3: smaller rows, so a day of a busy fleet fits the cap. Activity, needs-you and usage rows are kept in time order
  // (WITHOUT ROWID, keyed by their time and a number that orders rows of one instant) instead of a rowid table plus a
  // time index; activity states, needs-you reasons and job outcomes are interned in `name`. A job's end is a row of
  // its own (`job_end`, in time order, naming the job's row) instead of an update that grew the start's row, so both
  // tables are only appended to; a job's alias is its number alone when it is its type's slug and a number (text
  // otherwise: `alias`, of no affinity, keeps either as given). From this version on a snapshot's state is deflated
  // JSON (a BLOB); earlier text snapshots are still read.
  `
  INSERT OR IGNORE INTO name (text)
    SELECT state FROM activity UNION SELECT why FROM activity WHERE why IS NOT NULL
    UNION SELECT why FROM needs_you UNION SELECT outcome FROM job WHERE outcome IS NOT NULL;
  CREATE TABLE activity_v3 (at INTEGER NOT NULL, id INTEGER NOT NULL, seat INTEGER NOT NULL, persona INTEGER NOT NULL,
    state INTEGER NOT NULL, why INTEGER, certain INTEGER NOT NULL, label INTEGER, since INTEGER, PRIMARY KEY (at, id)) WITHOUT ROWID;
  INSERT INTO activity_v3 SELECT at, id, seat, persona, (SELECT n.id FROM name n WHERE n.text = activity.state),
    (SELECT n.id FROM name n WHERE n.text = activity.why), certain, label, since FROM activity;
  DROP TABLE activity;
  ALTER TABLE activity_v3 RENAME TO activity;
  CREATE TABLE needs_you_v3 (at INTEGER NOT NULL, id INTEGER NOT NULL, seat INTEGER NOT NULL, persona INTEGER NOT NULL,
    entered INTEGER NOT NULL, why INTEGER NOT NULL, certain INTEGER NOT NULL, waited_ms INTEGER, PRIMARY KEY (at, id)) WITHOUT ROWID;
  INSERT INTO needs_you_v3 SELECT at, id, seat, persona, entered, (SELECT n.id FROM name n WHERE n.text = needs_you.why),
    certain, waited_ms FROM needs_you;
  DROP TABLE needs_you;
  ALTER TABLE needs_you_v3 RENAME TO needs_you;
  CREATE TABLE usage_sample_v3 (at INTEGER NOT NULL, id INTEGER NOT NULL, seat INTEGER NOT NULL, persona INTEGER NOT NULL,
    input INTEGER NOT NULL, output INTEGER NOT NULL, cache_read INTEGER NOT NULL, cache_write INTEGER NOT NULL,
    cost_usd REAL, context_used INTEGER, context_fill REAL, PRIMARY KEY (at, id)) WITHOUT ROWID;
  INSERT INTO usage_sample_v3 SELECT at, id, seat, persona, input, output, cache_read, cache_write, cost_usd, context_used,
    context_fill FROM usage_sample;
  DROP TABLE usage_sample;
  ALTER TABLE usage_sample_v3 RENAME TO usage_sample;
  CREATE TABLE job_v3 (id INTEGER PRIMARY KEY, at INTEGER NOT NULL, seat INTEGER NOT NULL, persona INTEGER NOT NULL,
    native_id TEXT, key TEXT, alias BLOB, type INTEGER, label INTEGER NOT NULL, background INTEGER NOT NULL);
  INSERT INTO job_v3 SELECT id, at, seat, persona, native_id, key, alias, type, label, background FROM job;
  CREATE TABLE job_end (at INTEGER NOT NULL, job INTEGER NOT NULL, outcome INTEGER, PRIMARY KEY (at, job)) WITHOUT ROWID;
  INSERT INTO job_end SELECT ended_at, id, (SELECT n.id FROM name n WHERE n.text = job.outcome) FROM job
    WHERE ended_at IS NOT NULL;
  DROP TABLE job;
  ALTER TABLE job_v3 RENAME TO job;
  CREATE INDEX job_at ON job (at);
  `,
  // 4: replies sent to an agent's terminal (issue 39): the persona and the time only, never the text.
  `
  CREATE TABLE reply_sent (at INTEGER NOT NULL, id INTEGER NOT NULL, persona INTEGER NOT NULL, PRIMARY KEY (at, id)) WITHOUT ROWID;
  `,
];

/** The schema version this build writes. */
export const HISTORY_SCHEMA_VERSION = MIGRATIONS.length;

/** Tables that hold timed rows (pruned by retention and the cap). */
export const TIMED_TABLES = ['seat_event', 'activity', 'needs_you', 'persona_event', 'job', 'job_end', 'launch', 'usage_sample', 'snapshot', 'reply_sent'] as const;

/** What opening found: ready (migrated when older), foreign (another program's database) or newer than this build. */
export type SchemaCheck = { kind: 'ready'; from: number } | { kind: 'foreign' } | { kind: 'newer'; version: number };

/**
 * Brings a writable store to this build's version, each migration in its own transaction. A brand-new file is
 * set up first (incremental auto-vacuum, so the cap can hand pages back; our application id). `upTo` stops early
 * (tests of a migration).
 */
export function migrate(database: Database, upTo = HISTORY_SCHEMA_VERSION): SchemaCheck {
  const version = Number(database.pragma('user_version'));
  const application = Number(database.pragma('application_id'));
  const tables = Number((database.prepare("SELECT count(*) AS n FROM sqlite_master WHERE type = 'table'").get() ?? { n: 0 }).n);
  if (application !== HISTORY_APPLICATION_ID && (tables > 0 || version > 0)) return { kind: 'foreign' };
  if (version > HISTORY_SCHEMA_VERSION) return { kind: 'newer', version };
  if (version === 0 && tables === 0) {
    database.exec('PRAGMA auto_vacuum = INCREMENTAL');
    database.exec('VACUUM');
    database.exec(`PRAGMA application_id = ${HISTORY_APPLICATION_ID}`);
  }
  for (let step = version; step < upTo; step += 1) {
    database.exec('BEGIN IMMEDIATE');
    try {
      database.exec(MIGRATIONS[step]);
      database.exec(`PRAGMA user_version = ${step + 1}`);
      database.exec('COMMIT');
    } catch (error) {
      database.exec('ROLLBACK');
      throw error;
    }
  }
  return { kind: 'ready', from: version };
}

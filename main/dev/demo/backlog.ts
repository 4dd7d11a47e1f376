/**
 * The demo's Markdown backlog: a few work items per built-in station and for the custom role, each a `*.md`
 * file with YAML front matter (`labels`, `title`, `status`) as the Markdown work source reads it.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { CUSTOM_ROLE } from './prose';

/** One backlog file: its name and full text. */
export interface BacklogFile {
  name: string;
  text: string;
}

const ITEMS: { labels: string[]; title: string; status: string; body: string }[] = [
  { labels: ['planner'], title: 'Outline the offline mode', status: 'todo', body: 'Decide which screens must work without a network.' },
  { labels: ['planner'], title: 'Split the sync milestone', status: 'in progress', body: 'Two smaller milestones are easier to review.' },
  { labels: ['builder'], title: 'Add a retry budget to the sync queue', status: 'todo', body: 'Cap retries per minute and surface a gentle notice.' },
  { labels: ['builder'], title: 'Cache parsed config files', status: 'in progress', body: 'Parse once per change instead of once per read.' },
  { labels: ['builder', 'tester'], title: 'Date helper handles leap years', status: 'todo', body: 'Fix and cover 29 February.' },
  { labels: ['tester'], title: 'Make the slow suite deterministic', status: 'todo', body: 'One test depends on the wall clock.' },
  { labels: ['tester'], title: 'Cover the empty settings file', status: 'done', body: 'An empty file should load defaults.' },
  { labels: ['reviewer'], title: 'Review the cache invalidation change', status: 'todo', body: 'Check the eviction order under load.' },
  { labels: ['reviewer'], title: 'Second look at error messages', status: 'todo', body: 'Each message should say what to do next.' },
  { labels: [CUSTOM_ROLE], title: 'Softer footer chime', status: 'in progress', body: 'Two notes, lower volume, no click at the end.' },
  { labels: [CUSTOM_ROLE], title: 'Footstep sounds for the pixel world', status: 'todo', body: 'Wood, stone and carpet variants.' },
];

function slugOf(title: string): string {
  return title.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');
}

/** The backlog files the demo writes (eleven items: planner, builder, tester, reviewer and the custom role). */
export function backlogFiles(): BacklogFile[] {
  return ITEMS.map((item, index) => {
    // JSON strings are valid YAML flow scalars, so labels with spaces ("Sound Designer") need no special quoting.
    const labels = `[${item.labels.map((label) => JSON.stringify(label)).join(', ')}]`;
    const text =
      '---\n' +
      `title: ${JSON.stringify(item.title)}\n` +
      `labels: ${labels}\n` +
      `status: ${JSON.stringify(item.status)}\n` +
      '---\n\n' +
      `# ${item.title}\n\n${item.body}\n`;
    return { name: `${String(index + 1).padStart(2, '0')}-${slugOf(item.title)}.md`, text };
  });
}

/** Writes the backlog files into `dir` (created if missing), replacing files of the same name. */
export async function writeBacklog(dir: string): Promise<void> {
  await fs.mkdir(dir, { recursive: true });
  await Promise.all(backlogFiles().map((file) => fs.writeFile(path.join(dir, file.name), file.text)));
}

// Floor, furniture, role icons and small marks, drawn from rectangles and string art.
function grid(width, height) {
  return Array.from({ length: height }, () => new Array(width).fill(null));
}
function fill(target, x0, y0, x1, y1, colour) {
  for (let y = y0; y <= y1; y += 1) for (let x = x0; x <= x1; x += 1) if (target[y] && x >= 0 && x < target[y].length) target[y][x] = colour;
}
/** Paints string art into a new grid; `key` maps characters to colours, anything else is transparent. */
function art(rows, key) {
  const target = grid(rows[0].length, rows.length);
  rows.forEach((row, y) => [...row].forEach((cell, x) => { if (key[cell]) target[y][x] = key[cell]; }));
  return target;
}

const FLOOR_TONES = [['#d8a46d', '#cf9a62'], ['#d3a068', '#dcaa72'], ['#d6a26a', '#d09c64'], ['#dba872', '#d19d66']];

function floor(variant) {
  const tile = grid(16, 16);
  const tones = FLOOR_TONES[variant];
  for (let plank = 0; plank < 4; plank += 1) {
    fill(tile, 0, plank * 4, 15, plank * 4 + 3, tones[plank % 2]);
    fill(tile, 0, plank * 4 + 3, 15, plank * 4 + 3, '#b98550');
    const seam = (plank * 5 + variant * 7) % 16;
    fill(tile, seam, plank * 4, seam, plank * 4 + 2, '#b98550');
  }
  tile[1][(variant * 9 + 3) % 16] = '#e6b985';
  tile[9][(variant * 5 + 11) % 16] = '#e6b985';
  // A knot in some planks.
  if (variant >= 2) fill(tile, (variant * 6) % 13, 5 + variant, (variant * 6) % 13 + 1, 5 + variant, '#b98550');
  return tile;
}

function rug() {
  const tile = grid(16, 16);
  fill(tile, 0, 0, 15, 15, '#3f7f7a');
  for (let y = 0; y < 16; y += 1) for (let x = 0; x < 16; x += 1) {
    const distance = Math.abs(x - 7.5) + Math.abs(y - 7.5);
    if (distance > 5 && distance < 7) tile[y][x] = '#e8dcc0';
    if (distance < 2) tile[y][x] = '#d9733b';
  }
  return tile;
}

function bench() {
  const target = grid(56, 22);
  fill(target, 0, 0, 55, 4, '#c98b52');
  fill(target, 1, 0, 54, 0, '#e3a86e');
  fill(target, 0, 4, 55, 4, '#8f5c32');
  fill(target, 2, 5, 53, 16, '#8a5a33');
  fill(target, 4, 7, 25, 14, '#9a6a3f');
  fill(target, 30, 7, 51, 14, '#9a6a3f');
  fill(target, 13, 10, 16, 10, '#e0c080');
  fill(target, 39, 10, 42, 10, '#e0c080');
  fill(target, 2, 17, 5, 21, '#6b4226');
  fill(target, 50, 17, 53, 21, '#6b4226');
  fill(target, 0, 0, 0, 4, '#6b4226');
  fill(target, 55, 0, 55, 4, '#6b4226');
  return target;
}

/** The backlog board: a cork board with pinned notes around a paper where the station's count is written. */
function board() {
  const target = grid(30, 24);
  fill(target, 0, 0, 29, 23, '#6b4226');
  fill(target, 1, 1, 28, 22, '#c9a06a');
  fill(target, 1, 1, 28, 1, '#d8b27e');
  fill(target, 3, 2, 8, 5, '#ffe58a');
  fill(target, 21, 2, 26, 5, '#bfe3ff');
  fill(target, 11, 3, 17, 5, '#e8dcc0');
  fill(target, 5, 21, 26, 21, '#a8804a');
  fill(target, 4, 7, 25, 20, '#fff6dc');
  fill(target, 4, 7, 25, 7, '#ffffff');
  for (const [x, y] of [[5, 2], [23, 2], [14, 3], [14, 7]]) target[y][x] = '#d9485f';
  return target;
}

function door() {
  const target = grid(24, 34);
  fill(target, 0, 0, 23, 33, '#5a3a22');
  fill(target, 2, 2, 21, 33, '#a86b3c');
  fill(target, 4, 4, 19, 13, '#8f5a30');
  fill(target, 6, 6, 17, 11, '#bfe3ff');
  fill(target, 4, 17, 19, 30, '#8f5a30');
  fill(target, 17, 20, 18, 21, '#ffd84a');
  return target;
}

function plant() {
  return art([
    '...g..g.....', '..gGg.gg..g.', '.gGGg.gGg.gg', '..gGgggGggG.', '...gGGgGGg..', '....gGGGg...', '.....ggg....',
    '...pppppp...', '...PPPPPP...', '....pppp....', '....pppp....', '....pppp....',
  ], { g: '#3f9a4a', G: '#62c46b', p: '#c0603a', P: '#e07a4e' });
}

const ICONS = {
  planner: [['wwwwwwwwww..', 'wbbwwwwrw...', 'wwbbwwwwww..', 'wwwwbbwwww..', 'wwwwwwbbw...', 'wwrwwwwbbw..', 'wwwwwwwwww..', '............'], { w: '#fff6dc', b: '#3e7bd6', r: '#d9485f' }],
  designer: [['...kkkkk....', '..kyrrbbk...', '..kyyrbbk...', '..kgg..ck...', '...kkkkk....', '....k..k....', '...k....k...', '..k......k..'], { k: '#5a3a22', y: '#ffd84a', r: '#d9485f', b: '#3e7bd6', g: '#3f9a4a', c: '#e8dcc0' }],
  builder: [['..mmmmm.....', '..mmmmmm....', '..mmmmm.....', '....h.......', '....h.......', '....h.......', '....h.......', '....h.......'], { m: '#8c96a8', h: '#a86b3c' }],
  tester: [['....gg......', '....gg......', '....gg......', '...g..g.....', '..gllllg....', '.gllllllg...', '.gllllllg...', '..gggggg....'], { g: '#dfe9ef', l: '#62c46b' }],
  reviewer: [['..kkk.......', '.kbbbk......', 'kbbwbbk.....', 'kbbbbbk.....', '.kbbbk......', '..kkkhh.....', '......hh....', '.......hh...'], { k: '#3a3a4a', b: '#a8dcef', w: '#ffffff', h: '#a86b3c' }],
  researcher: [['............', '..rrrrrrr...', '..RRRRRRR...', '.bbbbbbbb...', '.BBBBBBBB...', '..gggggggg..', '..GGGGGGGG..', '............'], { r: '#d9485f', R: '#fff6dc', b: '#3e7bd6', B: '#fff6dc', g: '#3f9a4a', G: '#fff6dc' }],
  custom: [['.....y......', '....yyy.....', 'yyyyyyyyy...', '.yyyyyyy....', '..yyyyy.....', '.yyy.yyy....', '.yy...yy....', '............'], { y: '#ffd84a' }],
};

/** Harness marks, 7×7 on a dark 9×9 plate: Claude Code a spark, Codex a prompt in a frame, OpenCode braces. */
const MARKS = {
  claude: ['...#...', '.#.#.#.', '..###..', '###+###', '..###..', '.#.#.#.', '...#...'],
  codex: ['#######', '#.....#', '#+....#', '#.+...#', '#+.###+', '#.....#', '#######'],
  opencode: ['.##.##.', '.#...#.', '.#...#.', '#.....#', '.#...#.', '.#...#.', '.##.##.'],
};
/** Each harness's colour and its highlight (the renderer's HARNESS_COLOURS match the first). */
const MARK_COLOURS = { claude: ['#e2773d', '#ffd0a0'], codex: ['#4a9be8', '#bfe3ff'], opencode: ['#5bc46a', '#c8f0b0'] };
const MARK_PLATE = '#2a1f2a';

function mark(rows, [colour, light]) {
  const target = grid(9, 9);
  fill(target, 1, 0, 7, 8, MARK_PLATE);
  fill(target, 0, 1, 8, 7, MARK_PLATE);
  rows.forEach((row, y) => [...row].forEach((cell, x) => {
    if (cell === '#') target[y + 1][x + 1] = colour;
    else if (cell === '+') target[y + 1][x + 1] = light;
  }));
  return target;
}

/** Rows above a desk's top kept for the monitor standing on it. */
const DESK_TOP = 7;

/**
 * A work place's desk seen from the front (the character sits behind it): a monitor standing at its right end, the
 * top with a row of keys under the hands, and the front panel with the seat's harness mark (plain when unknown).
 */
function desk(markRows, colours) {
  const target = grid(26, DESK_TOP + 13);
  const top = DESK_TOP;
  fill(target, 0, top, 25, top + 2, '#c98b52');
  fill(target, 1, top, 24, top, '#e3a86e');
  fill(target, 0, top + 3, 25, top + 3, '#8f5c32');
  fill(target, 1, top + 4, 24, top + 11, '#8a5a33');
  fill(target, 2, top + 5, 23, top + 10, '#9a6a3f');
  fill(target, 1, top + 12, 3, top + 12, '#6b4226');
  fill(target, 22, top + 12, 24, top + 12, '#6b4226');
  for (let x = 8; x <= 17; x += 2) target[top + 1][x] = '#e8dcc0';
  const screen = art(['kkkkkk', 'kbbbbk', 'kbBbbk', 'kbbbbk', 'kkkkkk', '..kk..', '.kkkk.'], { k: '#3a3a4a', b: '#8fc8ef', B: '#d8f0ff' });
  screen.forEach((row, y) => row.forEach((colour, x) => { if (colour) target[y][x + 19] = colour; }));
  if (markRows) {
    mark(markRows, colours).forEach((row, y) => row.forEach((colour, x) => { if (colour) target[top + 3 + y][x + 8] = colour; }));
  } else {
    fill(target, 9, top + 6, 16, top + 8, '#7a4f2c');
  }
  return target;
}

/** Every prop, keyed by its atlas frame name. */
export function drawProps() {
  const props = {
    floor_0: floor(0), floor_1: floor(1), floor_2: floor(2), floor_3: floor(3), rug: rug(), bench: bench(), board: board(), door: door(), plant: plant(),
    shadow: art(['...xxxxxxxx...', '.xxxyyyyyyxxx.', 'xxyyyyyyyyyyxx', '.xxxyyyyyyxxx.', '...xxxxxxxx...'], { x: '#00000030', y: '#00000058' }),
    pixel: art(['w'], { w: '#ffffff' }),
  };
  for (const [name, [rows, key]] of Object.entries(ICONS)) props[`icon_${name}`] = art(rows, key);
  for (const [name, rows] of Object.entries(MARKS)) {
    props[`mark_${name}`] = mark(rows, MARK_COLOURS[name]);
    props[`desk_${name}`] = desk(rows, MARK_COLOURS[name]);
  }
  props.desk = desk(null);
  return props;
}

// Character parts drawn from rules: skin layer (head, hands, legs, outline), clothes layer (drawn white, tinted
// by the persona's palette at run time), hair styles (grey, tinted) and accessories (own colours).
export const SKIN_TONES = ['#f3d2b3', '#e2ae80', '#b57a50', '#7c4b31'];
const TROUSERS = '#3b3f5e';
const SHOES = '#2a2230';
const OUTLINE = '#2a1f2a';
const EYES = '#2b1d1d';
/** Frames each character has: standing, resting (eyes closed), four of typing and two of walking. */
export const FRAMES = ['stand', 'rest', 'work0', 'work1', 'work2', 'work3', 'walk0', 'walk1'];
/** Torso span (inclusive x) and head top row per body shape: slim, regular, broad, small. */
export const BODIES = [
  { left: 5, right: 10, headTop: 3 },
  { left: 4, right: 11, headTop: 3 },
  { left: 3, right: 12, headTop: 3 },
  { left: 5, right: 10, headTop: 5 },
];
export const CHARACTER_SIZE = { width: 16, height: 26 };

function blank() {
  return Array.from({ length: CHARACTER_SIZE.height }, () => new Array(CHARACTER_SIZE.width).fill(null));
}

function fill(grid, x0, y0, x1, y1, colour) {
  for (let y = y0; y <= y1; y += 1) for (let x = x0; x <= x1; x += 1) if (grid[y] && x >= 0 && x < grid[y].length) grid[y][x] = colour;
}

/** The two layers of one body shape in one frame, as grids of colours (null = transparent). */
export function drawBody(bodyIndex, frame, skinTone) {
  const body = BODIES[bodyIndex];
  const skin = blank();
  const clothes = blank();
  const head = body.headTop;
  // Head: an 8×8 rounded block with eyes.
  fill(skin, 5, head, 10, head, skinTone);
  fill(skin, 4, head + 1, 11, head + 6, skinTone);
  fill(skin, 5, head + 7, 10, head + 7, skinTone);
  if (frame === 'rest') {
    // Eyes closed: a short line each.
    fill(skin, 5, head + 5, 6, head + 5, EYES);
    fill(skin, 9, head + 5, 10, head + 5, EYES);
  } else {
    // Looking down at the keys in one typing frame, so the loop reads even when the hands are small.
    const look = frame === 'work3' ? 1 : 0;
    skin[head + 4 + look][6] = EYES;
    skin[head + 4 + look][9] = EYES;
  }
  const torsoTop = head + 8;
  const torsoBottom = 18;
  // Shirt: white with a shaded right edge and hem so the tint keeps some depth.
  fill(clothes, body.left, torsoTop, body.right, torsoBottom, '#ffffff');
  fill(clothes, body.right, torsoTop, body.right, torsoBottom, '#c8c8c8');
  fill(clothes, body.left, torsoBottom, body.right, torsoBottom, '#c8c8c8');
  fill(clothes, 7, torsoTop, 8, torsoTop, '#e2e2e2');
  const armLeft = body.left - 1;
  const armRight = body.right + 1;
  if (frame.startsWith('work')) {
    // Typing at the desk: forearms forward, hands over the keys; the left hand lifts, then the right, two pixels
    // each, so the four-frame loop is visible at zoom 1.
    const lift = { work0: [2, 0], work1: [0, 0], work2: [0, 2], work3: [1, 1] }[frame];
    fill(clothes, armLeft, torsoTop + 1, armLeft, torsoTop + 2, '#dcdcdc');
    fill(clothes, armRight, torsoTop + 1, armRight, torsoTop + 2, '#bdbdbd');
    fill(skin, armLeft, torsoTop + 4 - lift[0], armLeft + 1, torsoTop + 4 - lift[0], skinTone);
    fill(skin, armRight - 1, torsoTop + 4 - lift[1], armRight, torsoTop + 4 - lift[1], skinTone);
    fill(clothes, armLeft, torsoTop + 3, armLeft, torsoTop + 3 - lift[0] + 1, '#dcdcdc');
    fill(clothes, armRight, torsoTop + 3, armRight, torsoTop + 3 - lift[1] + 1, '#bdbdbd');
  } else {
    const swing = frame === 'walk0' ? 1 : frame === 'walk1' ? -1 : 0;
    fill(clothes, armLeft, torsoTop + 1, armLeft, torsoTop + 5 + swing, '#dcdcdc');
    fill(clothes, armRight, torsoTop + 1, armRight, torsoTop + 5 - swing, '#bdbdbd');
    skin[torsoTop + 6 + swing][armLeft] = skinTone;
    skin[torsoTop + 6 - swing][armRight] = skinTone;
  }
  // Legs and shoes; walking lifts one foot and moves the other forward.
  const lift = frame === 'walk0' ? [0, 1] : frame === 'walk1' ? [1, 0] : [0, 0];
  fill(skin, 5, 19, 7, 23 - lift[0], TROUSERS);
  fill(skin, 8, 19, 10, 23 - lift[1], TROUSERS);
  fill(skin, 4, 24 - lift[0], 7, 24 - lift[0], SHOES);
  fill(skin, 8, 24 - lift[1], 11, 24 - lift[1], SHOES);
  skin[19][7] = '#2f3250';
  outline(skin, clothes);
  return { skin, clothes };
}

function outline(skin, clothes) {
  const solid = (x, y) => y >= 0 && y < skin.length && x >= 0 && x < skin[0].length && (skin[y][x] || clothes[y][x]);
  const marks = [];
  for (let y = 0; y < skin.length; y += 1) {
    for (let x = 0; x < skin[0].length; x += 1) {
      if (solid(x, y)) continue;
      if (solid(x - 1, y) || solid(x + 1, y) || solid(x, y - 1) || solid(x, y + 1)) marks.push([x, y]);
    }
  }
  for (const [x, y] of marks) skin[y][x] = OUTLINE;
}

// Hair styles over the head (columns x3..x12, first row is one above the head top); '#' base, '+' highlight.
const HAIR = [
  ['..........', '...####...', '..######+.', '.########.', '.#......#.'],
  ['..........', '...#####..', '..#######+', '.########.', '.##....##.', '.#......#.', '.#......#.', '.#......#.', '.#......#.'],
  ['....##....', '...#++#...', '..######..', '.########.', '.#......#.'],
  ['..#.#.#...', '.#######..', '..######+.', '.########.', '.#.#..#.#.'],
  ['..........', '..######..', '.#######+.', '.########.', '.###..###.', '.##....##.', '.##....##.'],
  ['..........', '..........', '...#..#...', '.##....##.', '.#......#.'],
  ['..........', '...####...', '..######+#', '.#########', '.#......##', '.........#', '.........#'],
  ['..#####...', '.#######+.', '##########', '##########', '##......##', '##......##', '.#......#.'],
];

/** Hair style `index` as a grid in character space (head top taken from the regular body). */
export function drawHair(index) {
  const grid = blank();
  const style = HAIR[index];
  style.forEach((row, rowIndex) => {
    [...row].forEach((cell, column) => {
      if (cell === '#') grid[rowIndex + 2][column + 3] = '#9a9a9a';
      else if (cell === '+') grid[rowIndex + 2][column + 3] = '#e8e8e8';
    });
  });
  return grid;
}

/** Accessory `index` (1–5; 0 is none) as a grid in character space for the regular body. */
export function drawAccessory(index) {
  const grid = blank();
  const head = 3;
  switch (index) {
    case 1: // round glasses
      for (const [x, colour] of [[5, '#3a2a2a'], [6, '#a8dcef'], [7, '#3a2a2a'], [8, '#3a2a2a'], [9, '#a8dcef'], [10, '#3a2a2a']]) grid[head + 4][x] = colour;
      break;
    case 2: // headphones
      fill(grid, 4, head - 1, 11, head - 1, '#2d2d3a');
      fill(grid, 3, head + 3, 3, head + 5, '#d9485f');
      fill(grid, 12, head + 3, 12, head + 5, '#d9485f');
      break;
    case 3: // cap with a brim
      fill(grid, 4, head - 1, 11, head + 1, '#3e7bd6');
      fill(grid, 5, head - 1, 9, head - 1, '#5b95e8');
      fill(grid, 10, head + 1, 13, head + 1, '#2a5aa8');
      break;
    case 4: // scarf
      fill(grid, 4, head + 8, 11, head + 9, '#d9733b');
      fill(grid, 9, head + 10, 10, head + 12, '#b85a2a');
      break;
    case 5: // a flower pin on the chest
      grid[head + 10][6] = '#ffd84a';
      grid[head + 11][5] = '#ffd84a';
      grid[head + 11][7] = '#ffd84a';
      grid[head + 11][6] = '#ff8a3d';
      grid[head + 12][6] = '#ffd84a';
      break;
    default:
      break;
  }
  return grid;
}
